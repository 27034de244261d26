// Route schemas of /api/admin: the shapes come from @ownvoice/shared, as the web console reads them.
import {
  activitiesQuerySchema,
  activitiesResponseSchema,
  adminDeleteResponseSchema,
  adminOverviewSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  apiErrorBodySchema,
  grantCreditsBodySchema,
  inviteBodySchema,
  inviteResponseSchema,
  limitsBodySchema,
  roleBodySchema,
  userIdParamsSchema,
} from '@ownvoice/shared';

const errorResponses = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };
/** The actions: also 404 (no such user) and 423 (too many wrong codes locked the account). */
const actionErrors = { ...errorResponses, 404: apiErrorBodySchema, 423: apiErrorBodySchema };

export const overviewSchema = { response: { 200: adminOverviewSchema, ...errorResponses } };

export const usersListSchema = {
  querystring: adminUsersQuerySchema,
  response: { 200: adminUsersResponseSchema, ...errorResponses },
};

export const roleSchema = {
  params: userIdParamsSchema,
  body: roleBodySchema,
  response: { 200: adminUserResponseSchema, ...actionErrors },
};

export const deleteUserSchema = {
  params: userIdParamsSchema,
  response: { 200: adminDeleteResponseSchema, ...actionErrors },
};

export const grantSchema = {
  body: grantCreditsBodySchema,
  response: { 200: adminUserResponseSchema, ...actionErrors },
};

export const inviteSchema = { body: inviteBodySchema, response: { 201: inviteResponseSchema, ...actionErrors } };

export const limitsSchema = {
  params: userIdParamsSchema,
  body: limitsBodySchema,
  response: { 200: adminUserResponseSchema, ...actionErrors },
};

export const activitiesSchema = {
  params: userIdParamsSchema,
  querystring: activitiesQuerySchema,
  response: { 200: activitiesResponseSchema, ...errorResponses, 404: apiErrorBodySchema },
};
