// POST /api/stripe/webhook: where the payment provider reports what happened (both providers).
// The signature covers the raw bytes, so this route keeps the body as a Buffer; it carries no
// CSRF token or session (the provider is not a browser): the signature is its credential.
import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { Services } from '../../services/index.js';
import { webhookSchema } from './stripe.schemas.js';

export const WEBHOOK_PATH = '/stripe/webhook';

export async function webhookRoutes(app: FastifyInstance, { payments }: Services): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    scope.post(WEBHOOK_PATH, { schema: webhookSchema, config: { csrf: false } }, async (request) => {
      if (!payments) throw errors.billingDisabled();
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const signature = request.headers['stripe-signature'];
      await payments.events.receive(body, Array.isArray(signature) ? signature[0] : signature);
      return { received: true as const };
    });
  });
}
