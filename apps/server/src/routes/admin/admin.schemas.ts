// Route schemas of /api/admin: the shapes come from @ownvoice/shared, as the web console reads them.
import {
  activitiesQuerySchema,
  activitiesResponseSchema,
  adminBillingStatusSchema,
  adminConfirmationResponseSchema,
  adminDeleteResponseSchema,
  adminDisputeRehearsalBodySchema,
  adminDisputeRehearsalResponseSchema,
  adminMailParamsSchema,
  adminMailResponseSchema,
  adminMailRetryResponseSchema,
  adminMailTextResponseSchema,
  adminOverviewSchema,
  adminPaymentParamsSchema,
  adminPaymentsResponseSchema,
  adminRefundBodySchema,
  adminRefundResponseSchema,
  adminUserResponseSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  apiErrorBodySchema,
  grantCreditsBodySchema,
  invitationIdParamsSchema,
  invitationsResponseSchema,
  inviteBodySchema,
  inviteResponseSchema,
  limitsBodySchema,
  reconcileResponseSchema,
  roleBodySchema,
  userIdParamsSchema,
} from '@ownvoice/shared';

const errorResponses = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };
/**
 * The actions: also 404 (no such user), 409 (a plan the payment provider manages), 423 (a lock
 * from wrong codes still running), and 502/503 (the payment provider refused or is unreachable).
 */
const actionErrors = {
  ...errorResponses,
  404: apiErrorBodySchema,
  409: apiErrorBodySchema,
  423: apiErrorBodySchema,
  502: apiErrorBodySchema,
  503: apiErrorBodySchema,
};

export const confirmationSchema = { response: { 200: adminConfirmationResponseSchema, ...errorResponses } };

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

export const invitationsSchema = { response: { 200: invitationsResponseSchema, ...errorResponses } };

export const revokeInvitationSchema = {
  params: invitationIdParamsSchema,
  response: { 200: adminDeleteResponseSchema, ...actionErrors },
};

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

export const paymentsSchema = {
  params: userIdParamsSchema,
  response: { 200: adminPaymentsResponseSchema, ...errorResponses, 404: apiErrorBodySchema },
};

export const refundSchema = {
  params: adminPaymentParamsSchema,
  body: adminRefundBodySchema,
  response: { 200: adminRefundResponseSchema, ...actionErrors },
};

export const disputeRehearsalSchema = {
  params: adminPaymentParamsSchema,
  body: adminDisputeRehearsalBodySchema,
  response: { 200: adminDisputeRehearsalResponseSchema, ...actionErrors },
};

export const billingStatusSchema = { response: { 200: adminBillingStatusSchema, ...errorResponses } };

export const reconcileSchema = { response: { 200: reconcileResponseSchema, ...actionErrors } };

export const mailSchema = { response: { 200: adminMailResponseSchema, ...errorResponses } };

export const mailTextSchema = {
  params: adminMailParamsSchema,
  response: { 200: adminMailTextResponseSchema, ...errorResponses, 404: apiErrorBodySchema },
};

export const retryMailSchema = {
  params: adminMailParamsSchema,
  response: { 200: adminMailRetryResponseSchema, ...errorResponses, 404: apiErrorBodySchema },
};
