// The admin console's calls. The eight that change something (role, delete, grant, invite, revoke
// an invitation, limits, refund, reconcile) take an optional second-factor code: the server refuses them without a fresh one, and
// useMfaAction sends them again with the code the admin types.
import {
  type ActivitiesQuery,
  type ActivitiesResponse,
  ADMIN_MFA_HEADER,
  type AdminBillingStatus,
  type AdminConfirmation,
  type AdminDisputeRehearsalBody,
  type AdminMailMessage,
  type AdminMailResponse,
  type AdminMailText,
  type AdminOverview,
  type AdminPayment,
  type AdminRefundBody,
  type AdminUserResponse,
  type AdminUsersQuery,
  type AdminUsersResponse,
  activitiesResponseSchema,
  adminBillingStatusSchema,
  adminConfirmationResponseSchema,
  adminDeleteResponseSchema,
  adminDisputeRehearsalResponseSchema,
  adminMailResponseSchema,
  adminMailRetryResponseSchema,
  adminMailTextResponseSchema,
  adminOverviewSchema,
  adminPaymentsResponseSchema,
  adminRefundResponseSchema,
  adminUserResponseSchema,
  adminUsersResponseSchema,
  type GrantCreditsBody,
  type InviteBody,
  type InviteResponse,
  invitationsResponseSchema,
  inviteResponseSchema,
  type LimitsBody,
  type PendingInvitation,
  type Reconciliation,
  type Role,
  reconcileResponseSchema,
  type User,
} from '@ownvoice/shared';
import { api } from '../../lib/api';

const withSignal = (signal?: AbortSignal) => (signal ? { signal } : {});
const withMfa = (mfaToken?: string) => (mfaToken ? { headers: { [ADMIN_MFA_HEADER]: mfaToken } } : {});
const userPath = (id: string) => `/admin/users/${encodeURIComponent(id)}`;

/** A query string of the values that are set. */
function queryString(query: object): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.set(key, String(value));
  }
  return params.toString();
}

/** Until when this session's actions need no code (a right one opened the window). */
export const fetchConfirmation = async (signal?: AbortSignal): Promise<AdminConfirmation> =>
  (await api.get('/admin/confirmation', { schema: adminConfirmationResponseSchema, ...withSignal(signal) })).data;

export const endConfirmation = async (): Promise<AdminConfirmation> =>
  (await api.delete('/admin/confirmation', { schema: adminConfirmationResponseSchema })).data;

export const fetchAdminOverview = (signal?: AbortSignal): Promise<AdminOverview> =>
  api.get('/admin/overview', { schema: adminOverviewSchema, ...withSignal(signal) });

export const fetchAdminUsers = (query: AdminUsersQuery, signal?: AbortSignal): Promise<AdminUsersResponse> =>
  api.get(`/admin/users?${queryString(query)}`, { schema: adminUsersResponseSchema, ...withSignal(signal) });

export const fetchUserActivities = (
  id: string,
  query: ActivitiesQuery,
  signal?: AbortSignal,
): Promise<ActivitiesResponse> =>
  api.get(`${userPath(id)}/activities?${queryString(query)}`, {
    schema: activitiesResponseSchema,
    ...withSignal(signal),
  });

const userOf = (answer: AdminUserResponse): User => answer.data.user;

export const changeUserRole = async (id: string, role: Role, mfaToken?: string): Promise<User> =>
  userOf(await api.patch(`${userPath(id)}/role`, { role }, { schema: adminUserResponseSchema, ...withMfa(mfaToken) }));

export const deleteUser = async (id: string, mfaToken?: string): Promise<string> => {
  const answer = await api.delete(userPath(id), { schema: adminDeleteResponseSchema, ...withMfa(mfaToken) });
  return answer.data.id;
};

export const grantCredits = async (body: GrantCreditsBody, mfaToken?: string): Promise<User> =>
  userOf(await api.post('/admin/plans/grant', body, { schema: adminUserResponseSchema, ...withMfa(mfaToken) }));

export const updateLimits = async (id: string, body: LimitsBody, mfaToken?: string): Promise<User> =>
  userOf(await api.patch(`${userPath(id)}/limits`, body, { schema: adminUserResponseSchema, ...withMfa(mfaToken) }));

export const inviteAdmin = async (body: InviteBody, mfaToken?: string): Promise<InviteResponse['data']> => {
  const answer = await api.post('/admin/invite', body, { schema: inviteResponseSchema, ...withMfa(mfaToken) });
  return answer.data;
};

export const fetchPendingInvitations = async (signal?: AbortSignal): Promise<PendingInvitation[]> =>
  (await api.get('/admin/invitations', { schema: invitationsResponseSchema, ...withSignal(signal) })).data.invitations;

export const revokeInvitation = async (id: string, mfaToken?: string): Promise<string> => {
  const answer = await api.delete(`/admin/invitations/${encodeURIComponent(id)}`, {
    schema: adminDeleteResponseSchema,
    ...withMfa(mfaToken),
  });
  return answer.data.id;
};

export const fetchUserPayments = async (id: string, signal?: AbortSignal): Promise<AdminPayment[]> =>
  (await api.get(`${userPath(id)}/payments`, { schema: adminPaymentsResponseSchema, ...withSignal(signal) })).data
    .payments;

/** A refund of all that is left of the payment, or of `amountCents` of it. */
export const refundPayment = async (
  id: string,
  paymentId: string,
  body: AdminRefundBody,
  mfaToken?: string,
): Promise<AdminPayment> => {
  const answer = await api.post(`${userPath(id)}/payments/${encodeURIComponent(paymentId)}/refund`, body, {
    schema: adminRefundResponseSchema,
    ...withMfa(mfaToken),
  });
  return answer.data.payment;
};

/** A step of a dispute of the payment, rehearsed on the offline provider (decision 35). */
export const rehearseDispute = async (
  id: string,
  paymentId: string,
  body: AdminDisputeRehearsalBody,
  mfaToken?: string,
): Promise<AdminPayment> => {
  const answer = await api.post(`${userPath(id)}/payments/${encodeURIComponent(paymentId)}/rehearse-dispute`, body, {
    schema: adminDisputeRehearsalResponseSchema,
    ...withMfa(mfaToken),
  });
  return answer.data.payment;
};

export const fetchBillingStatus = async (signal?: AbortSignal): Promise<AdminBillingStatus> =>
  (await api.get('/admin/billing', { schema: adminBillingStatusSchema, ...withSignal(signal) })).data;

export const reconcileBilling = async (mfaToken?: string): Promise<Reconciliation> =>
  (await api.post('/admin/billing/reconcile', undefined, { schema: reconcileResponseSchema, ...withMfa(mfaToken) }))
    .data;

/** Where e-mail goes, how many messages failed, and the newest ones (without their text). */
export const fetchAdminMail = async (signal?: AbortSignal): Promise<AdminMailResponse['data']> =>
  (await api.get('/admin/mail', { schema: adminMailResponseSchema, ...withSignal(signal) })).data;

/** One message's text on an outbox server, its links' keys masked; the server logs the reading. */
export const fetchAdminMailText = async (id: string, signal?: AbortSignal): Promise<AdminMailText> =>
  (
    await api.get(`/admin/mail/${encodeURIComponent(id)}`, {
      schema: adminMailTextResponseSchema,
      ...withSignal(signal),
    })
  ).data;

/** A failed message queued again with its attempts afresh (no second factor: it only repeats a send). */
export const retryMail = async (id: string): Promise<AdminMailMessage> =>
  (await api.post(`/admin/mail/${encodeURIComponent(id)}/retry`, undefined, { schema: adminMailRetryResponseSchema }))
    .data.message;
