// POST /api/stripe/webhook: signed deliveries only (a refused one changes nothing), a body that is
// not JSON refused, an event billing does not act on answered 200. Each event's effect exactly
// once, in any order and however often it is delivered, is
// services/billing/billing-events.service.test.ts's.
import { packCheckoutMetadata } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../payments/stripe-events.js';
import {
  type BillingTestContext,
  createBillingContext,
  freshCard,
  me,
  signUp,
  submitCard,
  total,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
let secret: string;
beforeAll(async () => {
  ctx = await createBillingContext();
  secret = ctx.webhookSecret;
});
afterAll(() => ctx.close());

/** A delivery with the signature given, or none. */
function post(payload: string, signature?: string) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/stripe/webhook',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    payload,
  });
}

/**
 * A pack bought through the test checkout, its event held back: the checkout's completion as
 * the provider reports it, not yet delivered.
 */
async function undeliveredPackPayment(client: TestClient): Promise<string> {
  const { url } = (
    await client.post('/api/stripe/create-checkout-session', { metadata: packCheckoutMetadata('extra_chunk_edits') })
  ).json<{ url: string }>();
  ctx.provider.deliveryMode = 'manual';
  try {
    const paid = await submitCard(ctx, `${url}/pay`, freshCard());
    expect(paid.statusCode).toBe(303);
    const completed = (await ctx.provider.takeEvents()).find((e) => e.type === 'checkout.session.completed');
    if (!completed) throw new Error('no checkout completed');
    return completed.payload;
  } finally {
    ctx.provider.deliveryMode = 'auto';
  }
}

describe('webhook signatures', () => {
  it('refuses a missing, wrong or stale signature with a 400 and changes nothing', async () => {
    const { client } = await signUp(ctx);
    const payload = await undeliveredPackPayment(client);
    const stale = signPayload(payload, secret).replace(/t=\d+/, `t=${Math.floor(Date.now() / 1000) - 3600}`);
    for (const signature of [undefined, 't=1,v1=deadbeef', signPayload(payload, 'whsec_other'), stale]) {
      const res = await post(payload, signature);
      expect(res.statusCode, String(signature)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'INVALID_WEBHOOK_SIGNATURE' });
    }
    const tampered = payload.replace('extra_chunk_edits"}', 'extra_model"}');
    expect((await post(tampered, signPayload(payload, secret))).statusCode).toBe(400);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(0);
  });

  it('shows a refused delivery in /api/health until a delivery verifies again', async () => {
    const health = async () =>
      (await ctx.app.inject({ method: 'GET', url: '/api/health' })).json<{ billing: unknown }>().billing;
    const payload = JSON.stringify({
      id: 'evt_x',
      object: 'event',
      type: 'invoice.paid',
      created: 1,
      data: { object: {} },
    });
    expect((await post(payload, signPayload(payload, 'whsec_wrong'))).statusCode).toBe(400);
    expect(await health()).toMatchObject({
      status: 'degraded',
      reason: expect.stringContaining('STRIPE_WEBHOOK_SECRET'),
    });
    expect((await post(payload, signPayload(payload, secret))).statusCode).toBe(200);
    expect(await health()).toEqual({ status: 'ok', reason: null });
  });

  it('answers a body that is not JSON with a 400, and an event it does not act on with a 200', async () => {
    expect((await post('not json', signPayload('not json', secret))).statusCode).toBe(400);
    const other = JSON.stringify({
      id: 'evt_other',
      object: 'event',
      type: 'charge.refunded',
      created: 1,
      data: { object: {} },
    });
    expect((await post(other, signPayload(other, secret))).statusCode).toBe(200);
  });
});
