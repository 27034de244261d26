// The offline provider's test checkout (OWNVOICE_BILLING=offline): GET shows the page, POST
// pay completes the purchase through the provider (which delivers its events to the webhook
// handler before answering) and POST cancel abandons it; both send the browser on with a 303.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.js';
import { OFFLINE_CHECKOUT_PATH } from '../../payments/create-provider.js';
import { OfflineProvider } from '../../payments/offline-provider.js';
import type { Services } from '../../services/index.js';
import { checkoutPage } from './checkout-page.js';

const params = z.object({ id: z.string().regex(/^cs_offline_[0-9a-f]{24}$/, 'is not a checkout id') });
const PREFIX = '/api';

export async function offlineCheckoutRoutes(app: FastifyInstance, { payments }: Services): Promise<void> {
  const provider = payments?.provider;
  if (!(provider instanceof OfflineProvider)) return;
  const path = OFFLINE_CHECKOUT_PATH.slice(PREFIX.length);

  await app.register(async (scope) => {
    // The page's buttons are plain forms: their (empty) bodies are read and ignored.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, _b, done) =>
      done(null, {}),
    );

    scope.get(`${path}/:id`, { schema: { params } }, async (request, reply) => {
      const { id } = request.params as z.infer<typeof params>;
      const session = await provider.findCheckout(id);
      if (!session) throw errors.notFound('Checkout');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
        .send(checkoutPage(session, `${OFFLINE_CHECKOUT_PATH}/${id}`));
    });

    scope.post(`${path}/:id/pay`, { schema: { params }, config: { csrf: false } }, async (request, reply) => {
      const { id } = request.params as z.infer<typeof params>;
      if (!(await provider.findCheckout(id))) throw errors.notFound('Checkout');
      return reply.redirect(await provider.pay(id), 303);
    });

    scope.post(`${path}/:id/cancel`, { schema: { params }, config: { csrf: false } }, async (request, reply) => {
      const { id } = request.params as z.infer<typeof params>;
      if (!(await provider.findCheckout(id))) throw errors.notFound('Checkout');
      return reply.redirect(await provider.abandon(id), 303);
    });
  });
}
