// /api/plans: whether plans are sold here, the priority-support link (Virtuoso) and the usage ledger.
import {
  apiErrorBodySchema,
  billingInfoSchema,
  ledgerResponseSchema,
  prioritySupportLinkSchema,
} from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';

const errorResponses = { 401: apiErrorBodySchema, 403: apiErrorBodySchema, 404: apiErrorBodySchema };

export async function plansRoutes(app: FastifyInstance, { billing }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/plans/billing', { schema: { response: { 200: billingInfoSchema } } }, async () => billing.info());

  r.get(
    '/plans/priority-support-link',
    { schema: { response: { 200: prioritySupportLinkSchema, ...errorResponses } }, onRequest: app.requireUser },
    async (request) => ({ url: billing.prioritySupportLink(authOf(request).user) }),
  );

  r.get(
    '/plans/ledger',
    { schema: { response: { 200: ledgerResponseSchema, ...errorResponses } }, onRequest: app.requireUser },
    async (request) => ({ entries: await billing.ledger(authOf(request).user) }),
  );
}
