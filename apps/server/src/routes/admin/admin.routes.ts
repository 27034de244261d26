// /api/admin: the admin console. Every route answers only admins with two-factor on
// (app.requireAdmin, policies/adminPolicy), checked before anything else about the request. The
// actions (role, delete, grant, invite, limits, refund, a rehearsed dispute, reconcile) also need
// a fresh second factor in x-mfa-token, checked once the body is valid and before anything
// changes; sending a failed e-mail again does not (it only repeats what the service already meant
// to send), nor does reading a message, whose links' keys are masked and whose reading is logged.
import { ADMIN_MFA_HEADER } from '@ownvoice/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, sessionOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { originOf } from '../origin.js';
import {
  activitiesSchema,
  billingStatusSchema,
  confirmationSchema,
  deleteUserSchema,
  disputeRehearsalSchema,
  grantSchema,
  invitationsSchema,
  inviteSchema,
  limitsSchema,
  mailSchema,
  mailTextSchema,
  overviewSchema,
  paymentsSchema,
  reconcileSchema,
  refundSchema,
  retryMailSchema,
  revokeInvitationSchema,
  roleSchema,
  usersListSchema,
} from './admin.schemas.js';

/** Longer than any code: what is longer is not one, and is not read further. */
const MFA_HEADER_MAX = 64;

export async function adminRoutes(
  app: FastifyInstance,
  { admin, adminActions, adminMail, billingAdmin, invitations, stepUp, users }: Services,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: app.requireAdmin };
  const confirmed = {
    onRequest: app.requireAdmin,
    preHandler: async (request: FastifyRequest) => stepUp.confirm(sessionOf(request), freshCode(request)),
  };

  // The confirmed window a right code opened (step-up.service.ts), shown in the console; ending it
  // needs no code (it only takes rights away).
  r.get('/admin/confirmation', { schema: confirmationSchema, ...guard }, async (request) => ({
    data: { confirmedUntil: stepUp.confirmedUntil(sessionOf(request))?.toISOString() ?? null },
  }));

  r.delete('/admin/confirmation', { schema: confirmationSchema, ...guard }, async (request) => {
    await stepUp.endConfirmation(sessionOf(request));
    return { data: { confirmedUntil: null } };
  });

  r.get('/admin/overview', { schema: overviewSchema, ...guard }, async () => admin.overview());

  r.get('/admin/users', { schema: usersListSchema, ...guard }, async (request) => ({
    data: await admin.listUsers(request.query),
  }));

  r.get('/admin/users/:id/activities', { schema: activitiesSchema, ...guard }, async (request) => ({
    data: await admin.activities(request.params.id, request.query),
  }));

  r.patch('/admin/users/:id/role', { schema: roleSchema, ...confirmed }, async (request) => ({
    data: { user: await adminActions.changeRole(authOf(request).user, request.params.id, request.body.role) },
  }));

  r.delete('/admin/users/:id', { schema: deleteUserSchema, ...confirmed }, async (request) => {
    await adminActions.deleteUser(authOf(request).user, request.params.id);
    return { data: { id: request.params.id } };
  });

  r.post('/admin/plans/grant', { schema: grantSchema, ...confirmed }, async (request) => ({
    data: { user: await adminActions.grantCredits(authOf(request).user, request.body) },
  }));

  r.patch('/admin/users/:id/limits', { schema: limitsSchema, ...confirmed }, async (request) => ({
    data: { user: await adminActions.updateLimits(authOf(request).user, request.params.id, request.body) },
  }));

  r.get('/admin/users/:id/payments', { schema: paymentsSchema, ...guard }, async (request) => ({
    data: { payments: await billingAdmin.paymentsOf(request.params.id) },
  }));

  r.post('/admin/users/:id/payments/:paymentId/refund', { schema: refundSchema, ...confirmed }, async (request) => {
    const { id, paymentId } = request.params;
    const { payment, user } = await billingAdmin.refund(authOf(request).user, id, paymentId, request.body);
    return { data: { payment, user: await users.view(user) } };
  });

  r.post(
    '/admin/users/:id/payments/:paymentId/rehearse-dispute',
    { schema: disputeRehearsalSchema, ...confirmed },
    async (request) => {
      const { id, paymentId } = request.params;
      const { payment, user } = await billingAdmin.rehearseDispute(authOf(request).user, id, paymentId, request.body);
      return { data: { payment, user: await users.view(user) } };
    },
  );

  r.get('/admin/billing', { schema: billingStatusSchema, ...guard }, async () => ({
    data: await billingAdmin.status(),
  }));

  r.post('/admin/billing/reconcile', { schema: reconcileSchema, ...confirmed }, async (request) => ({
    data: await billingAdmin.reconcile(authOf(request).user),
  }));

  r.get('/admin/mail', { schema: mailSchema, ...guard }, async () => ({ data: await adminMail.view() }));

  // Reading a message (keys masked) is logged for its person, not confirmed with a code.
  r.get('/admin/mail/:id', { schema: mailTextSchema, ...guard }, async (request) => ({
    data: await adminMail.text(authOf(request).user, request.params.id),
  }));

  r.post('/admin/mail/:id/retry', { schema: retryMailSchema, ...guard }, async (request) => ({
    data: { message: await adminMail.retry(authOf(request).user, request.params.id) },
  }));

  r.post('/admin/invite', { schema: inviteSchema, ...confirmed }, async (request, reply) => {
    reply.code(201);
    return { data: await invitations.invite(authOf(request).user, request.body, originOf(request)) };
  });

  r.get('/admin/invitations', { schema: invitationsSchema, ...guard }, async () => ({
    data: { invitations: await invitations.listPending() },
  }));

  r.delete('/admin/invitations/:id', { schema: revokeInvitationSchema, ...confirmed }, async (request) => {
    await invitations.revoke(authOf(request).user, request.params.id);
    return { data: { id: request.params.id } };
  });
}

function freshCode(request: FastifyRequest): string | undefined {
  const value = request.headers[ADMIN_MFA_HEADER];
  const code = (Array.isArray(value) ? value[0] : value)?.trim();
  // An over-long value is no code: cut, it is refused (and counted) like any wrong one.
  return code ? code.slice(0, MFA_HEADER_MAX) : undefined;
}
