// The offline provider's pages (OWNVOICE_BILLING=offline): GET shows the test checkout, POST pay
// completes it with the chosen test card and POST cancel closes it, each sending the browser on
// with a 303; a declined card shows the page again with the bank's answer (402), as Stripe's
// Checkout does. The invoice page lets a person pay an invoice their saved card could not.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { z } from 'zod';
import { errors } from '../../errors.js';
import { OFFLINE_CHECKOUT_PATH } from '../../payments/create-provider.js';
import { OfflineProvider } from '../../payments/offline-provider.js';
import { PaymentProviderError } from '../../payments/provider.js';
import type { Services } from '../../services/index.js';
import { checkoutPage, invoicePage } from './checkout-page.js';

const checkoutParams = z.object({ id: z.string().regex(/^cs_offline_[0-9a-f]{24}$/, 'is not a checkout id') });
const invoiceParams = z.object({ id: z.string().regex(/^in_offline_[0-9a-f]{24}$/, 'is not an invoice id') });
const PREFIX = '/api';
/** Where the invoice page sends the person back to. */
const AFTER_INVOICE = '/dashboard/plans';

export async function offlineCheckoutRoutes(app: FastifyInstance, { payments }: Services): Promise<void> {
  const provider = payments?.offline;
  if (!(provider instanceof OfflineProvider)) return;
  const path = OFFLINE_CHECKOUT_PATH.slice(PREFIX.length);
  const html = (reply: FastifyReply, status: number, body: string) =>
    reply
      .code(status)
      .type('text/html; charset=utf-8')
      .header('cache-control', 'no-store')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'")
      .send(body);

  await app.register(async (scope) => {
    // The pages' buttons are plain forms: their bodies carry at most the chosen test card.
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_r, body, done) =>
      done(null, Object.fromEntries(new URLSearchParams(String(body)))),
    );
    /** The card typed in, else the test card chosen (else the provider's default). */
    const cardOf = (body: unknown): string | undefined => {
      const form = (typeof body === 'object' && body !== null ? body : {}) as { card?: unknown; card_number?: unknown };
      const typed = typeof form.card_number === 'string' ? form.card_number.trim() : '';
      return typed || (typeof form.card === 'string' ? form.card : undefined);
    };

    scope.get(`${path}/:id`, { schema: { params: checkoutParams } }, async (request, reply) => {
      const { id } = request.params as z.infer<typeof checkoutParams>;
      const session = await provider.findCheckout(id);
      if (!session) throw errors.notFound('Checkout');
      return html(reply, 200, checkoutPage(session, `${OFFLINE_CHECKOUT_PATH}/${id}`));
    });

    scope.post(
      `${path}/:id/pay`,
      { schema: { params: checkoutParams }, config: { csrf: false } },
      async (request, reply) => {
        const { id } = request.params as z.infer<typeof checkoutParams>;
        const session = await provider.findCheckout(id);
        if (!session) throw errors.notFound('Checkout');
        try {
          return reply.redirect(await provider.pay(id, cardOf(request.body)), 303);
        } catch (error) {
          if (!(error instanceof PaymentProviderError) || error.code !== 'card_declined') throw error;
          return html(reply, 402, checkoutPage(session, `${OFFLINE_CHECKOUT_PATH}/${id}`, error.message));
        }
      },
    );

    scope.post(
      `${path}/:id/cancel`,
      { schema: { params: checkoutParams }, config: { csrf: false } },
      async (request, reply) => {
        const { id } = request.params as z.infer<typeof checkoutParams>;
        if (!(await provider.findCheckout(id))) throw errors.notFound('Checkout');
        return reply.redirect(await provider.abandon(id), 303);
      },
    );

    scope.get(`${path}/invoice/:id`, { schema: { params: invoiceParams } }, async (request, reply) => {
      const { id } = request.params as z.infer<typeof invoiceParams>;
      const invoice = await provider.findInvoice(id);
      if (!invoice) throw errors.notFound('Invoice');
      return html(reply, 200, invoicePage(invoice, `${OFFLINE_CHECKOUT_PATH}/invoice/${id}`, AFTER_INVOICE));
    });

    scope.post(
      `${path}/invoice/:id/pay`,
      { schema: { params: invoiceParams }, config: { csrf: false } },
      async (request, reply) => {
        const { id } = request.params as z.infer<typeof invoiceParams>;
        const invoice = await provider.findInvoice(id);
        if (!invoice) throw errors.notFound('Invoice');
        try {
          await provider.payInvoice(id, cardOf(request.body));
          return reply.redirect(AFTER_INVOICE, 303);
        } catch (error) {
          if (!(error instanceof PaymentProviderError) || error.code === 'not_found') throw error;
          return html(
            reply,
            402,
            invoicePage(invoice, `${OFFLINE_CHECKOUT_PATH}/invoice/${id}`, AFTER_INVOICE, error.message),
          );
        }
      },
    );
  });
}
