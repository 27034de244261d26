// Plans bought through the offline provider's test checkout, end to end over HTTP: what each
// payment grants, for how long, at what price, and how changes of plan behave.
import { addMonthsUtc, PLANS, packCheckoutMetadata, planPriceCents, type User } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BillingTestContext,
  buy,
  createBillingContext,
  DAY_MS,
  expectLedgerExplainsBalances,
  invoicesPaid,
  me,
  pressCheckout,
  signUp,
  total,
  userRow,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

/**
 * Moves the service clock on a day at a time, with the person using the site each day (so the
 * session stays alive), then runs billing's scheduled work as the job would.
 */
async function passDays(client: TestClient, days: number) {
  for (let day = 0; day < days; day++) {
    ctx.clock.advance(DAY_MS);
    expect((await client.get('/api/auth/me')).statusCode).toBe(200);
  }
  await ctx.app.platform.services.billing.tick();
}

async function subscribe(client: TestClient, plan: 'minimum' | 'pro' | 'virtuoso', billingCycle: 'monthly' | 'annual') {
  return buy(ctx, client, '/api/stripe/change-plan', { plan, billingCycle });
}

describe('a new account', () => {
  it('has no usage until it pays when plans are sold', async () => {
    const { client } = await signUp(ctx);
    const user = await me(client);
    expect(user.plan).toMatchObject({ name: 'none', payNowDiscount: false, trialEndsAt: null });
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(0);
    expect(total(user.usageLimits.modelsTrained)).toBe(0);
  });
});

describe('pay now at onboarding', () => {
  it('goes through the test checkout to an active plan, 15% off, with a month of resources', async () => {
    const { client, id } = await signUp(ctx);
    const start = await client.post('/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'monthly',
      payNowPromo: true,
    });
    expect(start.statusCode, start.body).toBe(200);
    const { url, id: sessionId } = start.json<{ url: string; id: string }>();
    expect((await me(client)).onboarding.step).toBe('plan_checkout_started');

    const page = await ctx.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.body).toContain('Test checkout');
    expect(page.body).toContain('nothing is charged');
    expect(page.body).toContain('$31.44');

    const landing = await pressCheckout(ctx, url, 'pay');
    expect(landing).toBe(`http://localhost:80/dashboard/plans/success?session_id=${sessionId}&source=pay_now`);

    const user = await me(client);
    expect(user.plan).toEqual({
      name: 'pro',
      billingCycle: 'monthly',
      payNowDiscount: true,
      trialEndsAt: null,
      payNowAvailable: false,
      trialRefused: false,
    });
    expect(user.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, pendingChange: null });
    expect(user.subscription.currentPeriodEnd).toBe(addMonthsUtc(ctx.clock.now(), 1).toISOString());
    expect(user.onboarding.step).toBe('plan_active');
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(PLANS.pro.storageSlots);
    const threeMonths = addMonthsUtc(ctx.clock.now(), 3).toISOString();
    expect(user.usageLimits.chunkEdits).toEqual([{ amount: 1000, expiresAt: threeMonths }]);
    expect(user.usageLimits.modelsTrained).toEqual([{ amount: 3, expiresAt: threeMonths }]);
    expect(user.usageLimits.activationHours).toEqual([{ amount: 50, expiresAt: threeMonths }]);
    expect(await invoicesPaid(ctx, id)).toEqual([3144]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('keeps the discount on every renewal, and each renewal grants its month when paid', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'minimum',
      billingCycle: 'monthly',
      payNowPromo: true,
    });
    const price = planPriceCents('minimum', 'monthly', { payNow: true });
    expect(price).toBe(764);
    for (let month = 1; month <= 2; month++) await passDays(client, 32);
    expect(await invoicesPaid(ctx, id)).toEqual([price, price, price]);
    const user = await me(client);
    // Three months of proofreads, each lasting three months; the one-time training only once.
    expect(total(user.usageLimits.chunkEdits)).toBe(3 * PLANS.minimum.perMonth.chunkEdits);
    expect(total(user.usageLimits.modelsTrained)).toBe(1);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('is refused once a subscription exists, so the page falls back to changing plan', async () => {
    const { client } = await signUp(ctx);
    await subscribe(client, 'minimum', 'monthly');
    const again = await client.post('/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'monthly',
      payNowPromo: true,
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SUBSCRIPTION_EXISTS' });
  });
});

describe('annual billing', () => {
  it('costs 20% less and grants the whole year at once, lasting two years', async () => {
    const { client, id } = await signUp(ctx);
    await subscribe(client, 'virtuoso', 'annual');
    const user = await me(client);
    const twoYears = addMonthsUtc(ctx.clock.now(), 24).toISOString();
    expect(user.usageLimits.shortContent).toEqual([{ amount: 12 * 5000, expiresAt: twoYears }]);
    expect(user.usageLimits.modelsTrained).toEqual([{ amount: 12 * 28, expiresAt: twoYears }]);
    expect(await invoicesPaid(ctx, id)).toEqual([287_990]);
  });
});

describe('changing plan', () => {
  it('upgrades at once to a new period of the new plan, charged and granted in full; the old grant stays', async () => {
    const { client, id } = await signUp(ctx);
    await subscribe(client, 'minimum', 'monthly');
    await passDays(client, 20);
    const res = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ mode: 'subscription', action: 'upgraded', url: null });
    const user = await me(client);
    expect(user.plan.name).toBe('pro');
    expect(user.subscription.currentPeriodEnd).toBe(addMonthsUtc(ctx.clock.now(), 1).toISOString());
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(PLANS.pro.storageSlots);
    // Minimum's month, paid in full, stays; pro's month, paid in full, is added.
    expect(total(user.usageLimits.chunkEdits)).toBe(PLANS.minimum.perMonth.chunkEdits + PLANS.pro.perMonth.chunkEdits);
    expect(total(user.usageLimits.modelsTrained)).toBe(1 + PLANS.pro.perMonth.modelsTrained);
    expect(await invoicesPaid(ctx, id)).toEqual([899, 3699]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('schedules a downgrade for the next period and shows it as the pending change until then', async () => {
    const { client, id } = await signUp(ctx);
    await subscribe(client, 'pro', 'monthly');
    const before = await me(client);
    const res = await client.post('/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      mode: 'subscription',
      action: 'downgrade_scheduled',
      effectiveAt: before.subscription.currentPeriodEnd,
    });
    const pending = await me(client);
    expect(pending.plan.name).toBe('pro');
    expect(pending.subscription.pendingChange).toEqual({
      plan: 'minimum',
      billingCycle: 'monthly',
      effectiveAt: before.subscription.currentPeriodEnd,
      applyForSubscriptionId: before.subscription.stripeSubscriptionId,
    });

    await passDays(client, 32);
    const after = await me(client);
    expect(after.plan.name).toBe('minimum');
    expect(after.subscription.pendingChange).toBeNull();
    expect(after.usageLimits.modelStorageSlotsTotal).toBe(PLANS.minimum.storageSlots);
    expect(await invoicesPaid(ctx, id)).toEqual([3699, 899]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('treats monthly to annual on the same plan as an upgrade and refuses the current plan', async () => {
    const { client } = await signUp(ctx);
    await subscribe(client, 'pro', 'monthly');
    const same = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect(same.statusCode).toBe(400);
    const annual = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'annual' });
    expect(annual.json()).toMatchObject({ action: 'upgraded' });
    const user = await me(client);
    expect(user.plan.billingCycle).toBe('annual');
    expect(user.subscription.currentPeriodEnd).toBe(addMonthsUtc(ctx.clock.now(), 12).toISOString());
    // The month paid before stays; the year, paid in full, is granted in full.
    expect(total(user.usageLimits.chunkEdits)).toBe(13 * PLANS.pro.perMonth.chunkEdits);
  });
});

describe('cancelling', () => {
  it('cancels at the period end, can be reactivated, and ends the plan when the period is over', async () => {
    const { client, id } = await signUp(ctx);
    await subscribe(client, 'pro', 'monthly');
    const cancelled = await client.post('/api/stripe/cancel-subscription');
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json<{ user: User }>().user.subscription).toMatchObject({
      status: 'canceled',
      cancelAtPeriodEnd: true,
    });
    expect(cancelled.json<{ user: User }>().user.plan.name).toBe('pro');

    const reactivated = await client.post('/api/stripe/reactivate-subscription');
    expect(reactivated.json<{ user: User }>().user.subscription).toMatchObject({
      status: 'active',
      cancelAtPeriodEnd: false,
    });

    await client.post('/api/stripe/cancel-subscription');
    await passDays(client, 32);
    const ended = await me(client);
    expect(ended.plan.name).toBe('none');
    expect(ended.subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false });
    // What was paid for stays until it expires; the plan's storage slots go with the plan.
    expect(total(ended.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect(ended.usageLimits.modelStorageSlotsTotal).toBe(0);

    const late = await client.post('/api/stripe/reactivate-subscription');
    expect(late.statusCode).toBe(400);
    expect(late.json()).toMatchObject({ code: 'NO_SUBSCRIPTION' });
    expect((await userRow(ctx, id)).planName).toBe('none');
  });

  it('settles changes against a cancellation: a change of plan keeps the subscription, cancelling drops a downgrade', async () => {
    const { client } = await signUp(ctx);
    await subscribe(client, 'pro', 'monthly');
    await client.post('/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    await client.post('/api/stripe/cancel-subscription');
    const cancelled = await me(client);
    expect(cancelled.subscription).toMatchObject({ cancelAtPeriodEnd: true, pendingChange: null });

    await client.post('/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    expect((await me(client)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect((await me(client)).subscription.pendingChange).toMatchObject({ plan: 'minimum' });

    await client.post('/api/stripe/cancel-subscription');
    await client.post('/api/stripe/change-plan', { plan: 'virtuoso', billingCycle: 'monthly' });
    const upgraded = await me(client);
    expect(upgraded.plan.name).toBe('virtuoso');
    expect(upgraded.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, pendingChange: null });
  });

  it('refuses to cancel when there is nothing to cancel', async () => {
    const { client } = await signUp(ctx);
    const res = await client.post('/api/stripe/cancel-subscription');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'NO_SUBSCRIPTION' });
  });
});

describe('expiry', () => {
  it('counts a month granted three months ago for nothing, and spends what expires first', async () => {
    const { client, id } = await signUp(ctx);
    await subscribe(client, 'minimum', 'monthly');
    await client.post('/api/stripe/cancel-subscription');
    await passDays(client, 40);
    // The plan ended after its month; a pack bought now outlives what the plan granted.
    await buy(ctx, client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(PLANS.minimum.perMonth.chunkEdits + 100);
    await ctx.app.platform.services.usage.consume(id, 'chunkEdits', 50);
    const lists = (await me(client)).usageLimits.chunkEdits;
    expect(lists.map((t) => t.amount)).toEqual([PLANS.minimum.perMonth.chunkEdits - 50, 100]);

    await passDays(client, 55);
    expect((await me(client)).usageLimits.chunkEdits.map((t) => t.amount)).toEqual([100]);
    await expectLedgerExplainsBalances(ctx, id);
  });
});

describe('priority support', () => {
  it('gives the booking link to virtuoso subscribers only', async () => {
    const { client } = await signUp(ctx);
    expect((await client.get('/api/plans/priority-support-link')).statusCode).toBe(403);
    await subscribe(client, 'virtuoso', 'monthly');
    const res = await client.get('/api/plans/priority-support-link');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ url: 'https://book.example/ownvoice-priority' });
  });
});
