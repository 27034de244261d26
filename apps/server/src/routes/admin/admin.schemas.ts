// Route schemas of /api/admin: the shapes come from @ownvoice/shared, as the web console reads them.
import {
  adminOverviewSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  apiErrorBodySchema,
} from '@ownvoice/shared';

const errorResponses = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };

export const overviewSchema = { response: { 200: adminOverviewSchema, ...errorResponses } };

export const usersListSchema = {
  querystring: adminUsersQuerySchema,
  response: { 200: adminUsersResponseSchema, ...errorResponses },
};
