// The same service with OWNVOICE_BILLING=stripe: the real SDK against the local Stripe stand-in,
// and Stripe's events signed with the webhook secret and posted to the webhook route. After the
// webhook everything is the code the offline provider's tests exercise.
import { addMonthsUtc, PLANS, type User } from '@ownvoice/shared';
import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setUpStripeCatalog } from '../../billing-setup.js';
import { signPayload } from '../../payments/stripe-events.js';
import { createStripeClient } from '../../payments/stripe-provider.js';
import { expectLedgerExplainsBalances, me } from '../../test/billing.js';
import { StripeStandIn } from '../../test/stripe-stand-in.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

const WEBHOOK_SECRET = 'whsec_flow_test';
let standIn: StripeStandIn;
let ctx: TestContext;

beforeAll(async () => {
  standIn = await StripeStandIn.start({ now: new Date('2026-01-15T12:00:00Z') });
  await setUpStripeCatalog(createStripeClient(standIn.secretKey, standIn.apiBase));
  ctx = await createTestContext({
    billing: {
      provider: 'stripe',
      secretKey: standIn.secretKey,
      webhookSecret: WEBHOOK_SECRET,
      publishableKey: undefined,
      apiBase: standIn.apiBase,
      publicUrl: 'https://ownvoice.example',
      prioritySupportUrl: undefined,
    },
    starterAllowance: null,
  });
});
afterAll(async () => {
  await ctx.close();
  await standIn.close();
});

/** Stripe delivers what happened, signed, to the webhook. */
async function deliver(events: Stripe.Event[]) {
  for (const event of events) {
    const payload = JSON.stringify(event);
    const res = await ctx.app.inject({
      method: 'POST',
      url: '/api/stripe/webhook',
      headers: { 'content-type': 'application/json', 'stripe-signature': signPayload(payload, WEBHOOK_SECRET) },
      payload,
    });
    expect(res.statusCode, res.body).toBe(200);
  }
}

describe('billing through Stripe', () => {
  it('sells a pay-now plan through Stripe Checkout and grants it when Stripe reports the payment', async () => {
    const client = ctx.client();
    const { res } = await client.register();
    const userId = res.json<{ user: User }>().user.id;
    const start = await client.post('/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'annual',
      payNowPromo: true,
    });
    expect(start.statusCode, start.body).toBe(200);
    const session = standIn.requests.findLast((r) => r.method === 'POST' && r.path === '/v1/checkout/sessions');
    expect(session?.params).toMatchObject({
      mode: 'subscription',
      success_url: 'https://ownvoice.example/dashboard/plans/success?session_id={CHECKOUT_SESSION_ID}&source=pay_now',
      cancel_url: 'https://ownvoice.example/dashboard/plans/cancel',
    });
    expect(session?.idempotencyKey).toBeTruthy();
    expect((await me(client)).plan.name).toBe('none');

    standIn.completeCheckout(start.json<{ id: string }>().id);
    const events = standIn.takeEvents();
    // Out of order and twice over: the end state is the same.
    await deliver([...events].reverse());
    await deliver(events);

    const user = await me(client);
    expect(user.plan).toMatchObject({ name: 'pro', billingCycle: 'annual', payNowDiscount: true });
    expect(user.subscription.status).toBe('active');
    expect(user.usageLimits.chunkEdits).toEqual([
      { amount: 12 * PLANS.pro.perMonth.chunkEdits, expiresAt: addMonthsUtc(ctx.clock.now(), 24).toISOString() },
    ]);
    await expectLedgerExplainsBalances(ctx, userId);
  });

  it('schedules a downgrade with Stripe and cancels and reactivates there', async () => {
    const client = ctx.client();
    await client.register();
    const start = await client.post('/api/stripe/change-plan', { plan: 'virtuoso', billingCycle: 'monthly' });
    standIn.completeCheckout(start.json<{ id: string }>().id);
    await deliver(standIn.takeEvents());
    expect((await me(client)).plan.name).toBe('virtuoso');

    const down = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect(down.statusCode, down.body).toBe(200);
    expect(down.json()).toMatchObject({ action: 'downgrade_scheduled' });
    expect((await me(client)).subscription.pendingChange).toMatchObject({ plan: 'pro', billingCycle: 'monthly' });

    const cancelled = await client.post('/api/stripe/cancel-subscription');
    expect(cancelled.json<{ user: User }>().user.subscription).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    const back = await client.post('/api/stripe/reactivate-subscription');
    expect(back.json<{ user: User }>().user.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    await deliver(standIn.takeEvents());
    expect((await me(client)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
  });
});
