// When deliveries go wrong (decision 20.5): a refused signature is logged and shows in
// /api/health; a delivery the handler fails is delivered again; payments whose events never
// arrive are found by reconciliation (daily, or by an admin) and granted as they would have been
// on time; an event about a subscription OwnVoice did not make is answered 200 and ignored.
import { addMonthsUtc, PACKS, PLANS, packCheckoutMetadata } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  adminWithCode,
  type BillingTestContext,
  createBillingContext,
  DAY_MS,
  expectLedgerExplainsBalances,
  me,
  openCheckout,
  passTime,
  postWebhook,
  settle,
  signUp,
  total,
  tryPay,
} from '../../test/billing.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

const health = async () =>
  (await ctx.app.inject({ method: 'GET', url: '/api/health' })).json<{ billing: unknown }>().billing;

/** Pays through the test checkout with every event the provider sends lost on the way. */
async function payWithEventsLost(checkoutUrl: string) {
  ctx.provider.deliveryMode = 'manual';
  try {
    await tryPay(ctx, checkoutUrl);
    return await ctx.provider.takeEvents();
  } finally {
    ctx.provider.deliveryMode = 'auto';
  }
}

describe('webhook deliveries that go wrong', () => {
  it('shows billing as degraded after a refused signature, until a delivery verifies again', async () => {
    expect(await health()).toEqual({ status: 'ok', reason: null });
    const payload = JSON.stringify({
      id: 'evt_x',
      object: 'event',
      type: 'invoice.paid',
      created: 1,
      data: { object: {} },
    });
    expect((await postWebhook(ctx, payload, 'whsec_wrong')).statusCode).toBe(400);
    expect(await health()).toMatchObject({
      status: 'degraded',
      reason: expect.stringContaining('STRIPE_WEBHOOK_SECRET'),
    });
    expect((await postWebhook(ctx, payload, ctx.webhookSecret)).statusCode).toBe(200);
    expect(await health()).toEqual({ status: 'ok', reason: null });
  });

  it('delivers again an event whose handling failed, and grants then', async () => {
    const { client } = await signUp(ctx);
    const { url } = await openCheckout(client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    const events = ctx.app.platform.services.payments?.events;
    if (!events) throw new Error('no payments');
    const handle = events.handle.bind(events);
    events.handle = async () => {
      throw new Error('the database went away');
    };
    try {
      await tryPay(ctx, url);
    } finally {
      events.handle = handle;
    }
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(0);
    await passTime(ctx, client, 10 * 60_000); // the billing job delivers what waits
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(100);
  });

  it('answers 200 to an event about a subscription OwnVoice did not make, and changes nothing', async () => {
    const payload = JSON.stringify({
      id: 'evt_foreign',
      object: 'event',
      type: 'customer.subscription.updated',
      created: 1,
      data: { object: { id: 'sub_made_elsewhere', object: 'subscription', customer: 'cus_elsewhere', metadata: {} } },
    });
    const res = await postWebhook(ctx, payload, ctx.webhookSecret);
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('reconciliation', () => {
  it('grants, a day later, payments whose events never arrived, dated from when they were paid', async () => {
    const { client, id } = await signUp(ctx);
    const plan = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const paidAt = ctx.clock.now();
    expect((await payWithEventsLost(plan.url)).length).toBeGreaterThan(0);
    const pack = await openCheckout(client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_short_content'),
    });
    await payWithEventsLost(pack.url);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(0);

    await passTime(ctx, client, DAY_MS + 60_000); // the daily reconciliation runs on the billing job
    const user = await me(client);
    expect(user.plan.name).toBe('pro');
    expect(user.usageLimits.chunkEdits).toEqual([
      { amount: PLANS.pro.perMonth.chunkEdits, expiresAt: addMonthsUtc(paidAt, 3).toISOString() },
    ]);
    expect(total(user.usageLimits.shortContent)).toBe(
      PLANS.pro.perMonth.shortContent + PACKS.extra_short_content.amount,
    );
    expect(await health()).toMatchObject({ status: 'degraded', reason: expect.stringContaining('missed') });
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('runs when an admin asks, and finds nothing missed when every event arrived', async () => {
    const admin = await adminWithCode(ctx);
    const { client } = await signUp(ctx);
    const { url } = await openCheckout(client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_model'),
    });
    await tryPay(ctx, url);
    await settle(ctx);
    const res = await admin.client.request('POST', '/api/admin/billing/reconcile', undefined, {
      'x-mfa-token': admin.code(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { repaired: 0, error: null } });
    expect(res.json<{ data: { checked: number } }>().data.checked).toBeGreaterThan(0);
    const status = await admin.client.get('/api/admin/billing');
    expect(status.json()).toMatchObject({ data: { lastReconciliation: { repaired: 0 }, pendingActions: 0 } });
  });
});
