// POST /api/stripe/webhook: signed deliveries only, each event's effect exactly once, in any
// order and however many times or however concurrently it is delivered.
import { packCheckoutMetadata } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signPayload } from '../../payments/stripe-events.js';
import {
  type BillingTestContext,
  buy,
  createBillingContext,
  type DeliveredEvent,
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

/** The event again, as a later delivery of it (same id) or as another event with the same content. */
function redeliver(event: DeliveredEvent, asNewEvent = false) {
  const payload = asNewEvent ? event.payload.replace(event.id, `${event.id}_late`) : event.payload;
  return post(payload, signPayload(payload, secret));
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

describe('exactly once', () => {
  it('grants once when the same event is delivered twice', async () => {
    const { client } = await signUp(ctx);
    const payload = await undeliveredPackPayment(client);
    expect((await post(payload, signPayload(payload, secret))).statusCode).toBe(200);
    expect((await post(payload, signPayload(payload, secret))).statusCode).toBe(200);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(100);
  });

  it('grants once when two deliveries arrive at the same moment', async () => {
    const { client } = await signUp(ctx);
    const payload = await undeliveredPackPayment(client);
    const results = await Promise.all(Array.from({ length: 4 }, () => post(payload, signPayload(payload, secret))));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(100);
  });

  it('grants an invoice once even when another event reports the same payment', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const invoice = ctx.delivered.filter((e) => e.type === 'invoice.paid').at(-1);
    if (!invoice) throw new Error('no invoice delivered');
    const before = total((await me(client)).usageLimits.chunkEdits);
    expect((await redeliver(invoice, true)).statusCode).toBe(200);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(before);
    expect(id).toBeTruthy();
  });
});

describe('any order', () => {
  it('never lets a late subscription event undo a newer state', async () => {
    const { client } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const subscriptionId = (await me(client)).subscription.stripeSubscriptionId;
    const created = ctx.delivered.find(
      (e) => e.type === 'customer.subscription.created' && e.data.object.id === subscriptionId,
    );
    if (!created) throw new Error('no subscription event delivered');
    await client.post('/api/stripe/cancel-subscription');
    const newest = await me(client);

    // The first event about the subscription arrives again, late, as a different delivery.
    expect((await redeliver(created, true)).statusCode).toBe(200);
    const after = await me(client);
    expect(after.plan).toEqual(newest.plan);
    expect(after.subscription).toEqual(newest.subscription);
    expect(after.subscription.cancelAtPeriodEnd).toBe(true);
  });

  it('never lets a slow delivery that read an older state overwrite a change made meanwhile', async () => {
    const { client } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const subscriptionId = (await me(client)).subscription.stripeSubscriptionId ?? '';
    const created = ctx.delivered.find(
      (e) => e.type === 'customer.subscription.created' && e.data.object.id === subscriptionId,
    );
    if (!created) throw new Error('no subscription event delivered');
    // The delivery reads the subscription (not cancelled), then stalls before applying it.
    const read = ctx.provider.getSubscription.bind(ctx.provider);
    let release!: () => void;
    const stalled = new Promise<void>((resolve) => {
      release = resolve;
    });
    let reads = 0;
    ctx.provider.getSubscription = async (id) => {
      const state = await read(id);
      if (++reads === 1) await stalled;
      return state;
    };
    try {
      const slow = redeliver(created, true);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // The person cancels while the slow delivery holds what it read.
      const cancel = client.post('/api/stripe/cancel-subscription');
      await new Promise((resolve) => setTimeout(resolve, 50));
      release();
      expect((await slow).statusCode).toBe(200);
      expect((await cancel).statusCode).toBe(200);
    } finally {
      ctx.provider.getSubscription = read;
    }
    expect((await ctx.provider.getSubscription(subscriptionId))?.cancelAtPeriodEnd).toBe(true);
    expect((await me(client)).subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
  });

  it('handles a checkout completed after its subscription events', async () => {
    const { client } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'annual' });
    const user = await me(client);
    const checkout = ctx.delivered.find(
      (e) =>
        e.type === 'checkout.session.completed' &&
        e.data.object.subscription === user.subscription.stripeSubscriptionId,
    );
    if (!checkout) throw new Error('no checkout event delivered');
    await redeliver(checkout, true);
    expect(await me(client)).toEqual(user);
  });
});
