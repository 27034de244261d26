// One running subscription per account (decision 20.4), through BillingService and the offline
// provider without HTTP, whatever the tabs and the trial do: a new checkout closes the older ones,
// checkouts expire after a day, and a second subscription that starts anyway (two checkouts paid
// at the same moment) is ended at once and refunded in full.
import { type BillingCycle, type PaidPlanName, PLANS, planPriceCents } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOf, expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import { DAY_MS } from '../../test/factories/rows.js';
import { createUser } from '../../test/factories/users.js';
import { type BillingServiceContext, ORIGIN, openBillingServiceContext } from '../../test/service-context.js';

let ctx: BillingServiceContext;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
});
afterAll(() => ctx.close());

const running = async (userId: string) => ctx.provider.listSubscriptions(await ctx.customerOf(userId));
const CLOSED = `${ORIGIN}/dashboard/plans/cancel`;

async function planCheckout(id: string, plan: PaidPlanName, billingCycle: BillingCycle) {
  const session = await ctx.billing.changePlan(await ctx.reload(id), { plan, billingCycle }, ORIGIN);
  if (session.mode !== 'checkout') throw new Error('expected a checkout');
  return session;
}

const payNowCheckout = async (id: string, plan: PaidPlanName, billingCycle: BillingCycle) =>
  ctx.billing.startPayNowCheckout(await ctx.reload(id), { plan, billingCycle, payNowPromo: true }, ORIGIN);

async function onTrial(): Promise<string> {
  const { id } = await createUser(ctx);
  expect((await ctx.startTrial(id)).planName).toBe('trial');
  return id;
}

describe('one subscription per account', () => {
  it('closes an older plan checkout when a newer one opens, so paying the old tab does nothing', async () => {
    const { id } = await createUser(ctx);
    const older = await planCheckout(id, 'pro', 'monthly');
    ctx.clock.advance(61_000); // another tab, a minute later
    const newer = await payNowCheckout(id, 'minimum', 'annual');
    expect(newer.id).not.toBe(older.id);

    expect(await ctx.pay(older)).toBe(CLOSED);
    expect((await ctx.provider.findCheckout(older.id))?.status).toBe('expired');

    await ctx.pay(newer);
    expect(await running(id)).toHaveLength(1);
    expect((await ctx.view(id)).plan).toMatchObject({ name: 'minimum', billingCycle: 'annual' });
    expect(await ctx.invoicesPaid(id)).toEqual([planPriceCents('minimum', 'annual', { payNow: true })]);
  });

  it('ends a second subscription that started anyway, refunds it in full and grants nothing for it', async () => {
    const { id } = await createUser(ctx);
    const first = await planCheckout(id, 'pro', 'monthly');
    // Two checkouts paid at the same moment: the second was made before the first could close it.
    const customerId = await ctx.customerOf(id);
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
    await ctx.provider.pay(first.id);
    await ctx.provider.pay(second.id);
    ctx.provider.deliveryMode = 'auto';
    await ctx.settle();

    const subscriptions = await running(id);
    expect(subscriptions).toHaveLength(1);
    const user = await ctx.view(id);
    expect(user.plan.name).toBe('pro');
    expect(user.subscription.stripeSubscriptionId).toBe(subscriptions[0]?.id);
    // Pro's month only: the Virtuoso payment granted nothing and was refunded in full.
    expect(total(user.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    const virtuoso = planPriceCents('virtuoso', 'monthly', { payNow: false });
    expect(await ctx.invoicesPaid(id)).toEqual([planPriceCents('pro', 'monthly', { payNow: false }), virtuoso]);
    const refunded = ctx.delivered.filter((e) => e.type === 'charge.refunded' && e.data.object.customer === customerId);
    expect(refunded.map((e) => e.data.object.amount_refunded)).toEqual([virtuoso]);
    expect(await actionsOf(ctx, id)).toContain('subscription_rejected');

    // Cancel acts on the one running; nothing else renews.
    await ctx.billing.cancel(await ctx.reload(id));
    await ctx.passTime(40 * DAY_MS);
    expect(await running(id)).toHaveLength(0);
    expect((await ctx.invoicesPaid(id)).length).toBe(2);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('closes an open plan checkout when the trial ends, so the trial does not become two plans', async () => {
    const id = await onTrial();
    const checkout = await planCheckout(id, 'pro', 'annual');
    await ctx.passTime(DAY_MS + 60_000);
    expect((await ctx.view(id)).plan.name).toBe('minimum');

    expect(await ctx.pay(checkout)).toBe(CLOSED);
    expect(await running(id)).toHaveLength(1);
  });

  it('closes an open checkout when Finish trial starts the plan in another tab', async () => {
    const id = await onTrial();
    const checkout = await planCheckout(id, 'virtuoso', 'monthly');
    await ctx.billing.finishTrial(await ctx.reload(id));
    await ctx.settle();
    await ctx.pay(checkout);
    expect(await running(id)).toHaveLength(1);
    expect((await ctx.view(id)).plan.name).toBe('minimum');
  });

  it('closes a pay-now checkout opened before the trial started, so it cannot be paid on top of it', async () => {
    const { id } = await createUser(ctx);
    const payNow = await payNowCheckout(id, 'pro', 'monthly');
    await ctx.startTrial(id);
    expect(await ctx.pay(payNow)).toBe(CLOSED);
    expect(await running(id)).toHaveLength(0);
    expect((await ctx.view(id)).plan).toMatchObject({ name: 'trial', payNowDiscount: false });
  });

  it('expires a checkout a day after it opened, as Stripe does', async () => {
    const { id } = await createUser(ctx);
    const checkout = await planCheckout(id, 'pro', 'monthly');
    await ctx.passTime(DAY_MS + 1000);
    expect(ctx.delivered.some((e) => e.type === 'checkout.session.expired' && e.data.object.id === checkout.id)).toBe(
      true,
    );
    expect(await ctx.pay(checkout)).toBe(CLOSED);
    expect((await ctx.view(id)).plan.name).toBe('none');
    expect(await ctx.invoicesPaid(id)).toEqual([]);
    expect((await ctx.view(id)).subscription.currentPeriodEnd).toBeNull();
  });
});
