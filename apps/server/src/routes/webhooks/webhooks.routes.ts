// /api/auth/webhooks: where the account is told that a training ended (decision 46). Sessions
// only, as API keys are: no route here names an `apiKey` scope. Adding one asks for the password
// again, so it is rate-limited as the other password checks are.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sessionOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import {
  createWebhookSchema,
  listDeliveriesSchema,
  listWebhooksSchema,
  removeWebhookSchema,
  replayDeliverySchema,
} from './webhooks.schemas.js';

export async function webhooksRoutes(app: FastifyInstance, { webhooks }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: app.requireUser };

  r.get('/auth/webhooks', { schema: listWebhooksSchema, ...signedIn }, async (request) => ({
    webhooks: await webhooks.list(sessionOf(request).user),
  }));

  r.post(
    '/auth/webhooks',
    { schema: createWebhookSchema, ...signedIn, preValidation: app.authRateLimit },
    async (request, reply) => {
      const created = await webhooks.create(sessionOf(request), request.body);
      reply.code(201);
      return created;
    },
  );

  r.delete('/auth/webhooks/:id', { schema: removeWebhookSchema, ...signedIn }, async (request) => {
    await webhooks.remove(sessionOf(request).user, request.params.id);
    return { ok: true as const };
  });

  r.get('/auth/webhooks/:id/deliveries', { schema: listDeliveriesSchema, ...signedIn }, async (request) => ({
    deliveries: await webhooks.deliveries(sessionOf(request).user, request.params.id),
  }));

  r.post(
    '/auth/webhooks/:id/deliveries/:deliveryId/replay',
    { schema: replayDeliverySchema, ...signedIn },
    async (request, reply) => {
      const delivery = await webhooks.replay(sessionOf(request).user, request.params.id, request.params.deliveryId);
      reply.code(202);
      return delivery;
    },
  );
}
