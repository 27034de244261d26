// Disputes on the offline provider (docs/decisions/0035), through the services without HTTP: a
// bank's inquiry withdraws no money, so it takes nothing back and the subscription runs on, and
// its close changes nothing; escalated into a chargeback it takes back what is left and ends the
// subscription at once. An admin rehearses each step on a payment, which is applied at once; a
// server selling through Stripe refuses (its disputes come from banks).
import { type DisputeRehearsalStep, PLANS } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { UserRow } from '../../db/schema.js';
import { actionsOf, expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import { createUser } from '../../test/factories/users.js';
import { type BillingServiceContext, openBillingServiceContext } from '../../test/service-context.js';

let ctx: BillingServiceContext;
let admin: UserRow;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
  admin = await createUser(ctx, { role: 'admin', mfaEnabled: true });
});
afterAll(() => ctx.close());

const paymentsOf = (userId: string) => ctx.services.billingAdmin.paymentsOf(userId);
const proofreads = async (id: string) => total((await ctx.view(id)).usageLimits.chunkEdits);

/** A person on Pro monthly: their id, the payment's row id and its payment intent. */
async function onPro(): Promise<{ id: string; paymentId: string; paymentIntentId: string }> {
  const { id } = await createUser(ctx);
  await ctx.subscribe(id, 'pro', 'monthly');
  const paymentId = (await paymentsOf(id))[0]?.id ?? '';
  const invoice = await ctx.provider.getInvoice(paymentId);
  return { id, paymentId, paymentIntentId: invoice?.paymentIntentId ?? '' };
}

describe('a bank’s inquiry', () => {
  it('takes nothing back and keeps the subscription, and its close changes nothing', async () => {
    const { id, paymentIntentId } = await onPro();
    await ctx.provider.dispute(paymentIntentId, 'inquiry');
    await ctx.settle();
    const during = await ctx.view(id);
    expect(during.plan.name).toBe('pro');
    expect(during.subscription.status).toBe('active');
    expect(await proofreads(id)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'inquiry' });
    expect(await actionsOf(ctx, id)).toContain('payment_disputed');
    expect(await actionsOf(ctx, id)).not.toContain('subscription_ended');

    await ctx.provider.closeDispute(paymentIntentId, 'inquiry_closed');
    await ctx.settle();
    expect((await ctx.view(id)).plan.name).toBe('pro');
    expect(await proofreads(id)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'inquiry_closed' });
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('takes back what is left and ends the subscription once escalated into a chargeback', async () => {
    const { id, paymentIntentId } = await onPro();
    await ctx.provider.dispute(paymentIntentId, 'inquiry');
    await ctx.settle();
    await ctx.provider.escalateDispute(paymentIntentId);
    await ctx.settle();
    const after = await ctx.view(id);
    expect(after.plan.name).toBe('none');
    expect(await proofreads(id)).toBe(0);
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'open' });
    expect(await actionsOf(ctx, id)).toContain('subscription_ended');
    await expectLedgerExplainsBalances(ctx, id);
  });
});

describe('a dispute rehearsed by an admin', () => {
  const rehearse = (id: string, paymentId: string, step: DisputeRehearsalStep) =>
    ctx.services.billingAdmin.rehearseDispute(admin, id, paymentId, { step });

  it('applies each step at once, as the bank’s event would, and logs who rehearsed it', async () => {
    const { id, paymentId } = await onPro();
    const inquiry = await rehearse(id, paymentId, 'inquiry');
    expect(inquiry.payment.disputeStatus).toBe('inquiry');
    expect(inquiry.user.planName).toBe('pro');
    expect(await proofreads(id)).toBe(PLANS.pro.perMonth.chunkEdits);

    const escalated = await rehearse(id, paymentId, 'escalate');
    expect(escalated.payment.disputeStatus).toBe('open');
    expect(escalated.user.planName).toBe('none');
    expect(await proofreads(id)).toBe(0);
    // The provider's events about the same steps change nothing more.
    await ctx.settle();
    expect(await proofreads(id)).toBe(0);
    expect((await rehearse(id, paymentId, 'won')).payment.disputeStatus).toBe('won');
    expect(await proofreads(id)).toBe(0);
    expect((await actionsOf(ctx, id)).filter((action) => action === 'dispute_rehearsed')).toHaveLength(3);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('refuses a step the dispute cannot take, and a payment of someone else', async () => {
    const { id, paymentId } = await onPro();
    await expect(rehearse(id, paymentId, 'escalate')).rejects.toMatchObject({
      statusCode: 409,
      code: 'PAYMENT_PROVIDER_ERROR',
    });
    await rehearse(id, paymentId, 'chargeback');
    await expect(rehearse(id, paymentId, 'close_inquiry')).rejects.toMatchObject({ statusCode: 409 });
    const other = await createUser(ctx);
    await expect(rehearse(other.id, paymentId, 'inquiry')).rejects.toMatchObject({ statusCode: 404 });
    await expect(
      ctx.services.billingAdmin.rehearseDispute(await ctx.reload(admin.id), admin.id, paymentId, { step: 'lost' }),
    ).rejects.toMatchObject({ statusCode: 403 });
  });
});
