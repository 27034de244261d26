// One running subscription per account (decision 20.4), whatever the tabs and the trial do: a new
// checkout closes the older ones, checkouts expire after a day, and a second subscription that
// starts anyway (two checkouts paid at the same moment) is ended at once and refunded in full.
import { PLANS, planPriceCents } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actionsOf,
  type BillingTestContext,
  buy,
  createBillingContext,
  customerOf,
  DAY_MS,
  expectLedgerExplainsBalances,
  invoicesPaid,
  me,
  openCheckout,
  passTime,
  settle,
  signUp,
  total,
  tryPay,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

const running = async (userId: string) => ctx.provider.listSubscriptions(await customerOf(ctx, userId));

async function onTrial(): Promise<{ client: TestClient; id: string }> {
  const { client, id } = await signUp(ctx);
  await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
  expect((await me(client)).plan.name).toBe('trial');
  return { client, id };
}

describe('one subscription per account', () => {
  it('closes an older plan checkout when a newer one opens, so paying the old tab does nothing', async () => {
    const { client, id } = await signUp(ctx);
    const older = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    ctx.clock.advance(61_000); // another tab, a minute later
    const newer = await openCheckout(client, '/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'minimum',
      billingCycle: 'annual',
      payNowPromo: true,
    });
    expect(newer.id).not.toBe(older.id);

    const paidOld = await tryPay(ctx, older.url);
    expect(paidOld.statusCode).toBe(303);
    expect(paidOld.headers.location).toContain('/dashboard/plans/cancel');
    expect((await ctx.app.inject({ method: 'GET', url: older.url })).body).toContain('This checkout has closed');

    await tryPay(ctx, newer.url);
    expect(await running(id)).toHaveLength(1);
    expect((await me(client)).plan).toMatchObject({ name: 'minimum', billingCycle: 'annual' });
    expect(await invoicesPaid(ctx, id)).toEqual([planPriceCents('minimum', 'annual', { payNow: true })]);
  });

  it('ends a second subscription that started anyway, refunds it in full and grants nothing for it', async () => {
    const { client, id } = await signUp(ctx);
    const first = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    // Two checkouts paid at the same moment: the second was made before the first could close it.
    const customerId = await customerOf(ctx, id);
    const second = await ctx.provider.createPlanCheckout({
      userId: id,
      customerId,
      plan: 'virtuoso',
      billingCycle: 'monthly',
      payNow: false,
      successUrl: 'http://localhost/done',
      cancelUrl: 'http://localhost/plans',
      idempotencyKey: `second-tab-${id}`,
    });
    // Both paid before either's events are handled, as two tabs racing each other would.
    ctx.provider.deliveryMode = 'manual';
    await tryPay(ctx, first.url);
    await tryPay(ctx, second.url);
    ctx.provider.deliveryMode = 'auto';
    await settle(ctx);

    const subscriptions = await running(id);
    expect(subscriptions).toHaveLength(1);
    const user = await me(client);
    expect(user.plan.name).toBe('pro');
    expect(user.subscription.stripeSubscriptionId).toBe(subscriptions[0]?.id);
    // Pro's month only: the Virtuoso payment granted nothing and was refunded in full.
    expect(total(user.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    const virtuoso = planPriceCents('virtuoso', 'monthly', { payNow: false });
    expect(await invoicesPaid(ctx, id)).toEqual([planPriceCents('pro', 'monthly', { payNow: false }), virtuoso]);
    const refunded = ctx.delivered.filter((e) => e.type === 'charge.refunded' && e.data.object.customer === customerId);
    expect(refunded.map((e) => e.data.object.amount_refunded)).toEqual([virtuoso]);
    expect(await actionsOf(ctx, id)).toContain('subscription_rejected');

    // Cancel acts on the one running; nothing else renews.
    expect((await client.post('/api/stripe/cancel-subscription')).statusCode).toBe(200);
    ctx.clock.advance(40 * DAY_MS);
    await ctx.app.platform.services.billing.tick();
    await settle(ctx);
    expect(await running(id)).toHaveLength(0);
    expect((await invoicesPaid(ctx, id)).length).toBe(2);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('closes an open plan checkout when the trial ends, so the trial does not become two plans', async () => {
    const { client, id } = await onTrial();
    const checkout = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'annual' });
    await passTime(ctx, client, DAY_MS + 60_000);
    expect((await me(client)).plan.name).toBe('minimum');

    const late = await tryPay(ctx, checkout.url);
    expect(late.headers.location).toContain('/dashboard/plans/cancel');
    expect(await running(id)).toHaveLength(1);
  });

  it('closes an open checkout when Finish trial starts the plan in another tab', async () => {
    const { client, id } = await onTrial();
    const checkout = await openCheckout(client, '/api/stripe/change-plan', {
      plan: 'virtuoso',
      billingCycle: 'monthly',
    });
    expect((await client.post('/api/auth/finish-trial')).statusCode).toBe(200);
    await settle(ctx);
    await tryPay(ctx, checkout.url);
    expect(await running(id)).toHaveLength(1);
    expect((await me(client)).plan.name).toBe('minimum');
  });

  it('closes a pay-now checkout opened before the trial started, so it cannot be paid on top of it', async () => {
    const { client, id } = await signUp(ctx);
    const payNow = await openCheckout(client, '/api/stripe/onboarding/pay-now/plan-checkout', {
      plan: 'pro',
      billingCycle: 'monthly',
      payNowPromo: true,
    });
    await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
    expect((await tryPay(ctx, payNow.url)).headers.location).toContain('/dashboard/plans/cancel');
    expect(await running(id)).toHaveLength(0);
    expect((await me(client)).plan).toMatchObject({ name: 'trial', payNowDiscount: false });
  });

  it('expires a checkout a day after it opened, as Stripe does', async () => {
    const { client, id } = await signUp(ctx);
    const checkout = await openCheckout(client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    await passTime(ctx, client, DAY_MS + 1000);
    expect(ctx.delivered.some((e) => e.type === 'checkout.session.expired' && e.data.object.id === checkout.id)).toBe(
      true,
    );
    expect((await tryPay(ctx, checkout.url)).headers.location).toContain('/dashboard/plans/cancel');
    expect((await me(client)).plan.name).toBe('none');
    expect(await invoicesPaid(ctx, id)).toEqual([]);
    expect((await me(client)).subscription.currentPeriodEnd).toBeNull();
  });
});
