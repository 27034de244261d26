// Plans and packs as BillingService sells them through the offline provider, on a real database
// and without HTTP (test/service-context.ts): what each payment grants, for how long, at what
// price; how changes of plan, cancelling and expiry behave; the ledger a person reads; and an
// account closed with everything it pays for. The checkout pages and the routes' answers are
// routes/stripe/stripe-routes.test.ts's.
import {
  addMonthsUtc,
  type BillingCycle,
  type PackId,
  type PaidPlanName,
  PLANS,
  planPriceCents,
} from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, users } from '../../db/schema.js';
import { PaymentProviderError } from '../../payments/provider.js';
import { expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import { DAY_MS } from '../../test/factories/rows.js';
import { createSpend, createStorageSlots, createTranche } from '../../test/factories/usage.js';
import { createUser } from '../../test/factories/users.js';
import {
  type BillingServiceContext,
  ORIGIN,
  openBillingServiceContext,
  openServiceTestContext,
  PRIORITY_SUPPORT_URL,
} from '../../test/service-context.js';

let ctx: BillingServiceContext;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
});
afterAll(() => ctx.close());

const buyer = async () => (await createUser(ctx)).id;

const changePlan = async (id: string, plan: PaidPlanName, billingCycle: BillingCycle) =>
  ctx.billing.changePlan(await ctx.reload(id), { plan, billingCycle }, ORIGIN);

const payNow = async (id: string, plan: PaidPlanName, billingCycle: BillingCycle) =>
  ctx.billing.startPayNowCheckout(await ctx.reload(id), { plan, billingCycle, payNowPromo: true }, ORIGIN);

const buyPacks = async (id: string, ...packs: PackId[]) =>
  ctx.pay(await ctx.billing.startPackCheckout(await ctx.reload(id), packs, ORIGIN));

const cancel = async (id: string) => ctx.services.users.view(await ctx.billing.cancel(await ctx.reload(id)));
const reactivate = async (id: string) => ctx.services.users.view(await ctx.billing.reactivate(await ctx.reload(id)));

describe('a new account', () => {
  it('has no usage until it pays when plans are sold', async () => {
    const { user } = await ctx.services.auth.register(
      { username: 'newcomer', email: 'newcomer@example.com', password: 'Passw0rdOk' },
      {},
    );
    expect(user.plan).toMatchObject({ name: 'none', payNowDiscount: false, trialEndsAt: null });
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(0);
    expect(total(user.usageLimits.modelsTrained)).toBe(0);
  });
});

describe('pay now at onboarding', () => {
  it('goes through the checkout to an active plan, 15% off, with a month of resources', async () => {
    const id = await buyer();
    const session = await payNow(id, 'pro', 'monthly');
    expect((await ctx.view(id)).onboarding.step).toBe('plan_checkout_started');

    expect(await ctx.pay(session)).toBe(`${ORIGIN}/dashboard/plans/success?session_id=${session.id}&source=pay_now`);
    const user = await ctx.view(id);
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
    expect(await ctx.invoicesPaid(id)).toEqual([3144]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('keeps the discount on every renewal, and each renewal grants its month when paid', async () => {
    const id = await buyer();
    await ctx.pay(await payNow(id, 'minimum', 'monthly'));
    const price = planPriceCents('minimum', 'monthly', { payNow: true });
    expect(price).toBe(764);
    for (let month = 1; month <= 2; month++) await ctx.passTime(32 * DAY_MS);
    expect(await ctx.invoicesPaid(id)).toEqual([price, price, price]);
    const user = await ctx.view(id);
    // Three months of proofreads, each lasting three months; the one-time training only once.
    expect(total(user.usageLimits.chunkEdits)).toBe(3 * PLANS.minimum.perMonth.chunkEdits);
    expect(total(user.usageLimits.modelsTrained)).toBe(1);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('is refused once a subscription exists, so the page falls back to changing plan', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'minimum', 'monthly');
    await expect(payNow(id, 'pro', 'monthly')).rejects.toMatchObject({ statusCode: 409, code: 'SUBSCRIPTION_EXISTS' });
  });
});

describe('annual billing', () => {
  it('costs 20% less and grants the whole year at once, lasting two years', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'virtuoso', 'annual');
    const user = await ctx.view(id);
    const twoYears = addMonthsUtc(ctx.clock.now(), 24).toISOString();
    expect(user.usageLimits.shortContent).toEqual([{ amount: 12 * 5000, expiresAt: twoYears }]);
    expect(user.usageLimits.modelsTrained).toEqual([{ amount: 12 * 28, expiresAt: twoYears }]);
    expect(await ctx.invoicesPaid(id)).toEqual([287_990]);
  });
});

describe('changing plan', () => {
  it('upgrades at once to a new period of the new plan, charged and granted in full; the old grant stays', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'minimum', 'monthly');
    await ctx.passTime(20 * DAY_MS);
    expect(await changePlan(id, 'pro', 'monthly')).toMatchObject({
      mode: 'subscription',
      action: 'upgraded',
      url: null,
    });
    const user = await ctx.view(id);
    expect(user.plan.name).toBe('pro');
    expect(user.subscription.currentPeriodEnd).toBe(addMonthsUtc(ctx.clock.now(), 1).toISOString());
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(PLANS.pro.storageSlots);
    // Minimum's month, paid in full, stays; pro's month, paid in full, is added.
    expect(total(user.usageLimits.chunkEdits)).toBe(PLANS.minimum.perMonth.chunkEdits + PLANS.pro.perMonth.chunkEdits);
    expect(total(user.usageLimits.modelsTrained)).toBe(1 + PLANS.pro.perMonth.modelsTrained);
    expect(await ctx.invoicesPaid(id)).toEqual([899, 3699]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('schedules a downgrade for the next period and shows it as the pending change until then', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'pro', 'monthly');
    const before = await ctx.view(id);
    expect(await changePlan(id, 'minimum', 'monthly')).toMatchObject({
      mode: 'subscription',
      action: 'downgrade_scheduled',
      effectiveAt: before.subscription.currentPeriodEnd,
    });
    const pending = await ctx.view(id);
    expect(pending.plan.name).toBe('pro');
    expect(pending.subscription.pendingChange).toEqual({
      plan: 'minimum',
      billingCycle: 'monthly',
      effectiveAt: before.subscription.currentPeriodEnd,
      applyForSubscriptionId: before.subscription.stripeSubscriptionId,
    });

    await ctx.passTime(32 * DAY_MS);
    const after = await ctx.view(id);
    expect(after.plan.name).toBe('minimum');
    expect(after.subscription.pendingChange).toBeNull();
    expect(after.usageLimits.modelStorageSlotsTotal).toBe(PLANS.minimum.storageSlots);
    expect(await ctx.invoicesPaid(id)).toEqual([3699, 899]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('treats monthly to annual on the same plan as an upgrade and refuses the current plan', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'pro', 'monthly');
    await expect(changePlan(id, 'pro', 'monthly')).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect(await changePlan(id, 'pro', 'annual')).toMatchObject({ action: 'upgraded' });
    const user = await ctx.view(id);
    expect(user.plan.billingCycle).toBe('annual');
    expect(user.subscription.currentPeriodEnd).toBe(addMonthsUtc(ctx.clock.now(), 12).toISOString());
    // The month paid before stays; the year, paid in full, is granted in full.
    expect(total(user.usageLimits.chunkEdits)).toBe(13 * PLANS.pro.perMonth.chunkEdits);
  });
});

describe('cancelling', () => {
  it('cancels at the period end, can be reactivated, and ends the plan when the period is over', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'pro', 'monthly');
    const cancelled = await cancel(id);
    expect(cancelled.subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    expect(cancelled.plan.name).toBe('pro');

    expect((await reactivate(id)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

    await cancel(id);
    await ctx.passTime(32 * DAY_MS);
    const ended = await ctx.view(id);
    expect(ended.plan.name).toBe('none');
    expect(ended.subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: false });
    // What was paid for stays until it expires; the plan's storage slots go with the plan.
    expect(total(ended.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect(ended.usageLimits.modelStorageSlotsTotal).toBe(0);

    await expect(reactivate(id)).rejects.toMatchObject({ statusCode: 400, code: 'NO_SUBSCRIPTION' });
    expect((await ctx.reload(id)).planName).toBe('none');
  });

  it('settles changes against a cancellation: a change of plan keeps the subscription, cancelling drops a downgrade', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'pro', 'monthly');
    await changePlan(id, 'minimum', 'monthly');
    expect((await cancel(id)).subscription).toMatchObject({ cancelAtPeriodEnd: true, pendingChange: null });

    await changePlan(id, 'minimum', 'monthly');
    expect((await ctx.view(id)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect((await ctx.view(id)).subscription.pendingChange).toMatchObject({ plan: 'minimum' });

    await cancel(id);
    await changePlan(id, 'virtuoso', 'monthly');
    const upgraded = await ctx.view(id);
    expect(upgraded.plan.name).toBe('virtuoso');
    expect(upgraded.subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false, pendingChange: null });
  });

  it('refuses to cancel when there is nothing to cancel', async () => {
    const id = await buyer();
    await expect(cancel(id)).rejects.toMatchObject({ statusCode: 400, code: 'NO_SUBSCRIPTION' });
  });
});

describe('expiry', () => {
  it('counts a month granted three months ago for nothing, and spends what expires first', async () => {
    const id = await buyer();
    await ctx.subscribe(id, 'minimum', 'monthly');
    await cancel(id);
    await ctx.passTime(40 * DAY_MS);
    // The plan ended after its month; a pack bought now outlives what the plan granted.
    await buyPacks(id, 'extra_chunk_edits');
    expect(total((await ctx.view(id)).usageLimits.chunkEdits)).toBe(PLANS.minimum.perMonth.chunkEdits + 100);
    await ctx.services.usage.consume(id, 'chunkEdits', 50);
    const lists = (await ctx.view(id)).usageLimits.chunkEdits;
    expect(lists.map((t) => t.amount)).toEqual([PLANS.minimum.perMonth.chunkEdits - 50, 100]);

    await ctx.passTime(55 * DAY_MS);
    expect((await ctx.view(id)).usageLimits.chunkEdits.map((t) => t.amount)).toEqual([100]);
    await expectLedgerExplainsBalances(ctx, id);
  });
});

describe('packs', () => {
  it('adds 100 proofreads lasting three months', async () => {
    const id = await buyer();
    await buyPacks(id, 'extra_chunk_edits');
    expect((await ctx.view(id)).usageLimits.chunkEdits).toEqual([
      { amount: 100, expiresAt: addMonthsUtc(ctx.clock.now(), 3).toISOString() },
    ]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('adds storage slots for good, on top of what a plan brings', async () => {
    const id = await buyer();
    await buyPacks(id, 'extra_storage_slots');
    expect((await ctx.view(id)).usageLimits.modelStorageSlotsTotal).toBe(50);
    await ctx.subscribe(id, 'minimum', 'monthly');
    expect((await ctx.view(id)).usageLimits.modelStorageSlotsTotal).toBe(50 + PLANS.minimum.storageSlots);
    await changePlan(id, 'pro', 'monthly');
    expect((await ctx.view(id)).usageLimits.modelStorageSlotsTotal).toBe(50 + PLANS.pro.storageSlots);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('lets someone who ran out of proofreads buy the pack and carry on', async () => {
    const id = await buyer();
    const { usage } = ctx.services;
    await expect(usage.consume(id, 'chunkEdits', 1)).rejects.toMatchObject({ code: 'INSUFFICIENT_LIMIT' });
    await buyPacks(id, 'extra_chunk_edits');
    await usage.consume(id, 'chunkEdits', 1);
    expect(total((await ctx.view(id)).usageLimits.chunkEdits)).toBe(99);
  });

  it('grants nothing for a checkout never paid, or cancelled, even if Pay is pressed afterwards', async () => {
    const id = await buyer();
    await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_model'], ORIGIN);
    const session = await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_short_content'], ORIGIN);
    expect(await ctx.provider.abandon(session.id)).toBe(`${ORIGIN}/dashboard/plans/cancel`);
    expect(await ctx.pay(session)).toBe(`${ORIGIN}/dashboard/plans/cancel`);
    const user = await ctx.view(id);
    expect(total(user.usageLimits.modelsTrained)).toBe(0);
    expect(total(user.usageLimits.shortContent)).toBe(0);
  });

  it('answers a double click with the same open checkout, and a purchase after it with a new one', async () => {
    const id = await buyer();
    const start = async () => ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_chunk_edits'], ORIGIN);
    const first = await start();
    expect((await start()).id).toBe(first.id);
    await ctx.pay(first);
    // Within the same minute: the paid checkout is not offered again, a fresh one is.
    const second = await start();
    expect(second.id).not.toBe(first.id);
    expect((await ctx.provider.findCheckout(second.id))?.status).toBe('open');
    expect((await start()).id).toBe(second.id);
    await ctx.pay(second);
    const abandoned = await start();
    await ctx.provider.abandon(abandoned.id);
    const third = await start();
    expect([first.id, second.id, abandoned.id]).not.toContain(third.id);
    await ctx.pay(third);
    expect(total((await ctx.view(id)).usageLimits.chunkEdits)).toBe(300);
  });

  it('is not sold on a server without payments', async () => {
    const plain = await openServiceTestContext();
    try {
      const user = await createUser(plain);
      await expect(plain.services.billing.startPackCheckout(user, ['extra_model'], ORIGIN)).rejects.toMatchObject({
        statusCode: 404,
        code: 'BILLING_DISABLED',
      });
      expect(plain.services.billing.info()).toEqual({ provider: 'none', testMode: false });
    } finally {
      await plain.close();
    }
  });
});

describe('what a person reads of their billing', () => {
  it('gives the priority support link to virtuoso subscribers only', async () => {
    const id = await buyer();
    const none = await ctx.reload(id);
    expect(() => ctx.billing.prioritySupportLink(none)).toThrow(
      expect.objectContaining({ statusCode: 403, code: 'FORBIDDEN' }),
    );
    await ctx.subscribe(id, 'virtuoso', 'monthly');
    expect(ctx.billing.prioritySupportLink(await ctx.reload(id))).toBe(PRIORITY_SUPPORT_URL);
    expect(ctx.billing.info()).toEqual({ provider: 'offline', testMode: true });
  });

  it('shows the ledger newest first, in shown units, with each tranche’s expiry', async () => {
    const id = await buyer();
    const hours = await createTranche(ctx, id, { type: 'activationHours', amount: 120, days: 30 });
    ctx.clock.advance(1000);
    await createSpend(ctx, hours, 30);
    ctx.clock.advance(1000);
    await createStorageSlots(ctx, id, 5);
    const expiresAt = hours.expiresAt.toISOString();
    expect(
      (await ctx.billing.ledger(await ctx.reload(id))).map(({ resource, amount, reason, expiresAt, apiKeyName }) => ({
        resource,
        amount,
        reason,
        expiresAt,
        apiKeyName,
      })),
    ).toEqual([
      { resource: 'storageSlots', amount: 5, reason: 'admin', expiresAt: null, apiKeyName: null },
      { resource: 'activationHours', amount: -0.5, reason: 'usage', expiresAt, apiKeyName: null },
      { resource: 'activationHours', amount: 2, reason: 'admin', expiresAt, apiKeyName: null },
    ]);
  });
});

describe('closing an account that pays', () => {
  const erase = async (id: string) => {
    const user = await ctx.reload(id);
    await ctx.services.account.erase(user, {
      userId: id,
      actorId: id,
      action: 'account_deleted',
      details: 'Deleted by its owner with password',
    });
  };
  const exists = async (id: string) => (await ctx.database.db.select().from(users).where(eq(users.id, id))).length > 0;
  const subscribed = async (plan: PaidPlanName = 'pro') => {
    const id = await buyer();
    await ctx.subscribe(id, plan, 'monthly');
    return { id, customerId: await ctx.customerOf(id) };
  };

  it('ends the subscription at once, so nothing renews and nothing more is charged', async () => {
    const { id, customerId } = await subscribed();
    const open = await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_model'], ORIGIN);
    await erase(id);
    expect(await exists(id)).toBe(false);
    expect(await ctx.provider.listSubscriptions(customerId)).toEqual([]);
    expect(await ctx.provider.listOpenCheckouts(customerId)).toEqual([]);
    expect(await ctx.pay(open)).toContain('/dashboard/plans/cancel');

    await ctx.passTime(70 * DAY_MS);
    expect(await ctx.invoicesPaid(id)).toEqual([3699]);
  });

  it('deletes nothing when the provider cannot end the subscription, and says to try again', async () => {
    const { id, customerId } = await subscribed();
    const listSubscriptions = ctx.provider.listSubscriptions;
    ctx.provider.listSubscriptions = async () => {
      throw new PaymentProviderError('Could not reach the payment provider.', 'unavailable', 503);
    };
    try {
      const refused = await erase(id).catch((error: unknown) => error);
      expect(refused).toMatchObject({ statusCode: 503, code: 'PAYMENT_PROVIDER_ERROR' });
      expect((refused as Error).message).toContain('nothing was deleted');
    } finally {
      ctx.provider.listSubscriptions = listSubscriptions;
    }
    expect(await exists(id)).toBe(true);
    expect(await ctx.provider.listSubscriptions(customerId)).toHaveLength(1);
    await erase(id);
    expect(await ctx.provider.listSubscriptions(customerId)).toEqual([]);
  });

  it('ends the subscription when an admin deletes the account too', async () => {
    const admin = await createUser(ctx, { role: 'admin', mfaEnabled: true });
    const { id, customerId } = await subscribed('minimum');
    await ctx.services.adminActions.deleteUser(admin, id);
    expect(await exists(id)).toBe(false);
    expect(await ctx.provider.listSubscriptions(customerId)).toEqual([]);
  });

  it('refunds in full a payment that arrives after the account is gone', async () => {
    const id = await buyer();
    const session = await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_chunk_edits'], ORIGIN);
    // Paid in another tab at the moment of deletion: its event is handled after.
    ctx.provider.deliveryMode = 'manual';
    await ctx.provider.pay(session.id);
    await erase(id);
    ctx.provider.deliveryMode = 'auto';
    await ctx.settle();
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.userId, id));
    expect(payment).toMatchObject({ outcome: 'rejected' });
    const refunded = ctx.delivered.filter((e) => e.type === 'charge.refunded');
    expect(refunded.at(-1)?.data.object).toMatchObject({ amount_refunded: payment?.amountCents });
  });
});
