// What an admin does about money (decision 20.1, 20.3, 20.6), through BillingAdminService and
// AdminActionsService without HTTP: refunds in full or in part, which take back that share of
// what the payment granted out of what is unspent; refunds made and chargebacks opened at the
// provider; reconciliation on request; and plan edits refused while payments own the plan. The
// admin routes' sign-in and fresh second factor are routes/authorization-matrix's and
// routes/admin/admin-actions.test.ts's.
import { PACKS, type PackId, PLANS } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries, type UserRow } from '../../db/schema.js';
import { actionsOf, expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import { createPayment } from '../../test/factories/billing.js';
import { createUser } from '../../test/factories/users.js';
import { type BillingServiceContext, ORIGIN, openBillingServiceContext } from '../../test/service-context.js';

let ctx: BillingServiceContext;
let admin: UserRow;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
  admin = await createUser(ctx, { role: 'admin', mfaEnabled: true });
});
afterAll(() => ctx.close());

const paymentsOf = (userId: string) => ctx.services.billingAdmin.paymentsOf(userId);
const refund = (userId: string, paymentId: string, body: { amountCents?: number; endSubscription?: boolean } = {}) =>
  ctx.services.billingAdmin.refund(admin, userId, paymentId, { endSubscription: false, ...body });
const buyPacks = async (id: string, ...packs: PackId[]) =>
  ctx.pay(await ctx.billing.startPackCheckout(await ctx.reload(id), packs, ORIGIN));
const usageOf = async (id: string) => (await ctx.view(id)).usageLimits;

describe('refunds by an admin', () => {
  it('lists a person’s payments and takes back all of a fully refunded pack that is left', async () => {
    const { id } = await createUser(ctx);
    await buyPacks(id, 'extra_chunk_edits');
    const [pack] = await paymentsOf(id);
    expect(pack).toMatchObject({
      amountCents: PACKS.extra_chunk_edits.priceCents,
      refundedCents: 0,
      outcome: 'granted',
    });
    expect(total((await usageOf(id)).chunkEdits)).toBe(100);

    const done = await refund(id, pack?.id ?? '');
    expect(done.payment).toMatchObject({ refundedCents: PACKS.extra_chunk_edits.priceCents });
    expect(total((await usageOf(id)).chunkEdits)).toBe(0);
    expect(await actionsOf(ctx, id)).toContain('payment_refunded');
    // The provider's event about the same refund changes nothing more.
    await ctx.settle();
    expect(total((await usageOf(id)).chunkEdits)).toBe(0);
    await expect(refund(id, pack?.id ?? '')).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('buys what a Voice needs in one checkout, and a refund takes back all of it', async () => {
    const { id } = await createUser(ctx);
    const slotsBefore = (await usageOf(id)).modelStorageSlotsTotal;
    await buyPacks(id, 'extra_storage_slots', 'extra_model');
    const [payment] = await paymentsOf(id);
    expect(payment).toMatchObject({
      amountCents: PACKS.extra_storage_slots.priceCents + PACKS.extra_model.priceCents,
      outcome: 'granted',
    });
    const bought = await usageOf(id);
    expect(bought.modelStorageSlotsTotal).toBe(slotsBefore + PACKS.extra_storage_slots.amount);
    expect(total(bought.modelsTrained)).toBe(PACKS.extra_model.amount);
    await expectLedgerExplainsBalances(ctx, id);

    await refund(id, payment?.id ?? '');
    const after = await usageOf(id);
    expect(after.modelStorageSlotsTotal).toBe(slotsBefore);
    expect(total(after.modelsTrained)).toBe(0);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('takes back the refunded share of a plan’s period, out of what is unspent only', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    const granted = PLANS.pro.perMonth.chunkEdits; // 1000
    await ctx.services.usage.consume(id, 'chunkEdits', 700);
    const [invoice] = await paymentsOf(id);

    // Half of $36.99, rounded: half the grant (500) is owed back, but only 300 is left unspent.
    await refund(id, invoice?.id ?? '', { amountCents: 1850 });
    const after = await ctx.view(id);
    expect(total(after.usageLimits.chunkEdits)).toBe(0);
    expect(after.plan.name).toBe('pro');
    // Trainings were not spent: half of them (rounded up) goes.
    expect(total(after.usageLimits.modelsTrained)).toBe(
      PLANS.pro.perMonth.modelsTrained - Math.ceil(PLANS.pro.perMonth.modelsTrained * (1850 / 3699)),
    );
    const lines = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, id));
    expect(
      lines.filter((line) => line.reason === 'reversal' && line.resource === 'chunkEdits').map((l) => l.amount),
    ).toEqual([-300]);
    expect(granted).toBe(1000);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('can end the subscription with the refund, as when someone leaves', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'minimum', 'monthly');
    const [invoice] = await paymentsOf(id);
    const { user } = await refund(id, invoice?.id ?? '', { endSubscription: true });
    expect(user.planName).toBe('none');
    await ctx.settle();
    const after = await ctx.view(id);
    expect(after.plan.name).toBe('none');
    expect(total(after.usageLimits.modelsTrained)).toBe(0);
    expect(await actionsOf(ctx, id)).toContain('subscription_ended');
  });

  it('refuses more than is left, a payment of someone else, one not made by card, and one’s own', async () => {
    const { id } = await createUser(ctx);
    await buyPacks(id, 'extra_chunk_edits');
    const [pack] = await paymentsOf(id);
    await expect(refund(id, pack?.id ?? '', { amountCents: 1_000_000 })).rejects.toMatchObject({
      statusCode: 400,
      code: 'VALIDATION_ERROR',
    });
    const other = await createUser(ctx);
    await expect(refund(other.id, pack?.id ?? '')).rejects.toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    const notByCard = await createPayment(ctx, other.id, { paymentIntentId: null });
    await expect(refund(other.id, notByCard.id)).rejects.toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    const own = await createPayment(ctx, admin.id);
    await expect(refund(admin.id, own.id)).rejects.toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await paymentsOf(id))[0]).toMatchObject({ refundedCents: 0 });
  });
});

describe('at the provider', () => {
  it('takes back a pack refunded in the provider’s dashboard', async () => {
    const { id } = await createUser(ctx);
    await buyPacks(id, 'extra_chunk_edits');
    const [pack] = await paymentsOf(id);
    const paymentIntentId = (await ctx.provider.getCheckout(pack?.id ?? ''))?.paymentIntentId ?? '';
    const price = PACKS.extra_chunk_edits.priceCents;
    const half = Math.floor(price / 2);
    await ctx.provider.refund({ paymentIntentId, amountCents: half, idempotencyKey: 'dashboard' });
    await ctx.settle();
    // That share of the pack's proofreads goes, rounded up.
    expect(total((await usageOf(id)).chunkEdits)).toBe(100 - Math.ceil((100 * half) / price));
    expect((await paymentsOf(id))[0]).toMatchObject({ refundedCents: half });
  });

  it('takes back what a disputed payment granted and ends its subscription at once', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    const invoiceId = (await paymentsOf(id))[0]?.id ?? '';
    const invoice = await ctx.provider.getInvoice(invoiceId);
    await ctx.provider.dispute(invoice?.paymentIntentId ?? '');
    await ctx.settle();
    const after = await ctx.view(id);
    expect(after.plan.name).toBe('none');
    expect(total(after.usageLimits.chunkEdits)).toBe(0);
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'open' });
    expect(await actionsOf(ctx, id)).toEqual(expect.arrayContaining(['payment_disputed', 'subscription_ended']));

    // Won by us: recorded; nothing comes back by itself (an admin may grant it again).
    await ctx.provider.closeDispute(invoice?.paymentIntentId ?? '', 'won');
    await ctx.settle();
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'won' });
    expect(total((await usageOf(id)).chunkEdits)).toBe(0);
    await expectLedgerExplainsBalances(ctx, id);
  });
});

describe('reconciliation on request', () => {
  it('runs when an admin asks, and finds nothing missed when every event arrived', async () => {
    const { id } = await createUser(ctx);
    await buyPacks(id, 'extra_model');
    const run = await ctx.services.billingAdmin.reconcile(admin);
    expect(run).toMatchObject({ repaired: 0, error: null, requestedBy: admin.id });
    expect(run.checked).toBeGreaterThan(0);
    expect(await ctx.services.billingAdmin.status()).toMatchObject({
      lastReconciliation: { repaired: 0 },
      pendingActions: 0,
    });
    expect(await actionsOf(ctx, admin.id)).toContain('billing_reconciled');
  });
});

describe('admin edits with payments on', () => {
  const editLimits = (userId: string, body: Parameters<typeof ctx.services.adminActions.updateLimits>[2]) =>
    ctx.services.adminActions.updateLimits(admin, userId, body);

  it('refuses to give a paid plan for nothing, which would unlock priority support', async () => {
    const { id } = await createUser(ctx);
    await expect(editLimits(id, { plan: { name: 'virtuoso' } })).rejects.toMatchObject({
      statusCode: 409,
      code: 'PLAN_MANAGED_BY_PROVIDER',
    });
    expect((await ctx.view(id)).plan.name).toBe('none');
    const user = await ctx.reload(id);
    expect(() => ctx.billing.prioritySupportLink(user)).toThrow(expect.objectContaining({ statusCode: 403 }));
  });

  it('refuses to set a paying person’s plan by hand, which would leave their card charged', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    const refused = await editLimits(id, { plan: { name: 'none' } }).catch((error: unknown) => error);
    expect(refused).toMatchObject({ statusCode: 409, code: 'PLAN_MANAGED_BY_PROVIDER' });
    expect((refused as Error).message).toContain('grant usage instead');
    expect((await ctx.view(id)).plan.name).toBe('pro');
  });

  it('cancels and reactivates through the provider, with the admin in the log', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'minimum', 'annual');
    const subscriptionId = (await ctx.reload(id)).providerSubscriptionId ?? '';

    await editLimits(id, { subscription: { status: 'canceled' } });
    expect((await ctx.view(id)).subscription).toMatchObject({ status: 'canceled', cancelAtPeriodEnd: true });
    expect((await ctx.provider.getSubscription(subscriptionId))?.cancelAtPeriodEnd).toBe(true);

    await editLimits(id, { subscription: { status: 'active' } });
    expect((await ctx.provider.getSubscription(subscriptionId))?.cancelAtPeriodEnd).toBe(false);
    expect((await ctx.view(id)).subscription).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });
    expect(await ctx.provider.listSubscriptions(await ctx.customerOf(id))).toHaveLength(1);

    const log = await ctx.services.admin.activities(id, { page: 1, limit: 50 });
    expect(log.activities.filter((a) => a.action === 'limits_changed').map((a) => [a.details, a.actor?.id])).toEqual([
      ['Subscription status canceled → active', admin.id],
      ['Subscription status active → canceled', admin.id],
    ]);
  });

  it('refuses a status edit for someone who pays nothing, instead of pretending', async () => {
    const { id } = await createUser(ctx);
    await expect(editLimits(id, { subscription: { status: 'canceled' } })).rejects.toMatchObject({
      statusCode: 409,
      code: 'PLAN_MANAGED_BY_PROVIDER',
    });
  });
});
