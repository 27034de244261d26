// Refunds and chargebacks take back what they paid for (decision 20.1, 20.3): an admin's refund in
// full or in part, from the console, through the provider; a refund made at the provider; a
// chargeback that holds the money and ends the subscription. What was already used stays used.
import { PACKS, PLANS, packCheckoutMetadata } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ledgerEntries } from '../../db/schema.js';
import {
  actionsOf,
  adminWithCode,
  type BillingTestContext,
  buy,
  createBillingContext,
  expectLedgerExplainsBalances,
  me,
  settle,
  signUp,
  total,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
let admin: Awaited<ReturnType<typeof adminWithCode>>;
beforeAll(async () => {
  ctx = await createBillingContext();
  admin = await adminWithCode(ctx);
});
afterAll(() => ctx.close());

interface Payment {
  id: string;
  amountCents: number;
  refundedCents: number;
  disputeStatus: string | null;
  outcome: string;
}

async function paymentsOf(userId: string): Promise<Payment[]> {
  const res = await admin.client.get(`/api/admin/users/${userId}/payments`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ data: { payments: Payment[] } }>().data.payments;
}

function refund(userId: string, paymentId: string, body: Record<string, unknown> = {}) {
  return admin.client.request('POST', `/api/admin/users/${userId}/payments/${paymentId}/refund`, body, {
    'x-mfa-token': admin.code(),
  });
}

/** Spends `n` proofreads the way a Convert's edit pass does. */
async function spendProofreads(userId: string, n: number) {
  await ctx.app.platform.services.usage.consume(userId, 'chunkEdits', n);
}

async function buyPack(client: TestClient) {
  await buy(ctx, client, '/api/stripe/create-checkout-session', {
    metadata: packCheckoutMetadata('extra_chunk_edits'),
  });
}

describe('refunds by an admin', () => {
  it('lists a person’s payments and takes back all of a fully refunded pack that is left', async () => {
    const { client, id } = await signUp(ctx);
    await buyPack(client);
    const [pack] = await paymentsOf(id);
    expect(pack).toMatchObject({
      amountCents: PACKS.extra_chunk_edits.priceCents,
      refundedCents: 0,
      outcome: 'granted',
    });
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(100);

    const res = await refund(id, pack?.id ?? '');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ data: { payment: { refundedCents: PACKS.extra_chunk_edits.priceCents } } });
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(0);
    expect(await actionsOf(ctx, id)).toContain('payment_refunded');
    // The provider's event about the same refund changes nothing more.
    await settle(ctx);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(0);
    expect((await refund(id, pack?.id ?? '')).statusCode).toBe(400);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('buys what a Voice needs in one checkout, and a refund takes back all of it', async () => {
    const { client, id } = await signUp(ctx);
    const slotsBefore = (await me(client)).usageLimits.modelStorageSlotsTotal;
    await buy(ctx, client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_storage_slots'),
      alsoPacks: ['extra_model'],
    });
    const [payment] = await paymentsOf(id);
    expect(payment).toMatchObject({
      amountCents: PACKS.extra_storage_slots.priceCents + PACKS.extra_model.priceCents,
      outcome: 'granted',
    });
    const bought = (await me(client)).usageLimits;
    expect(bought.modelStorageSlotsTotal).toBe(slotsBefore + PACKS.extra_storage_slots.amount);
    expect(total(bought.modelsTrained)).toBe(PACKS.extra_model.amount);
    await expectLedgerExplainsBalances(ctx, id);

    expect((await refund(id, payment?.id ?? '')).statusCode).toBe(200);
    const after = (await me(client)).usageLimits;
    expect(after.modelStorageSlotsTotal).toBe(slotsBefore);
    expect(total(after.modelsTrained)).toBe(0);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('refuses a checkout that names a pack twice', async () => {
    const { client } = await signUp(ctx);
    const res = await client.post('/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_model'),
      alsoPacks: ['extra_model'],
    });
    expect(res.statusCode).toBe(400);
  });

  it('takes back the refunded share of a plan’s period, out of what is unspent only', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const granted = PLANS.pro.perMonth.chunkEdits; // 1000
    await spendProofreads(id, 700);
    const [invoice] = await paymentsOf(id);

    // Half of $36.99, rounded: half the grant (500) is owed back, but only 300 is left unspent.
    const res = await refund(id, invoice?.id ?? '', { amountCents: 1850 });
    expect(res.statusCode, res.body).toBe(200);
    const after = await me(client);
    expect(total(after.usageLimits.chunkEdits)).toBe(0);
    expect(after.plan.name).toBe('pro');
    // Trainings were not spent: half of them (rounded up) goes.
    expect(total(after.usageLimits.modelsTrained)).toBe(
      PLANS.pro.perMonth.modelsTrained - Math.ceil(PLANS.pro.perMonth.modelsTrained * (1850 / 3699)),
    );
    const reversals = await ctx.database.db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, id));
    expect(
      reversals.filter((line) => line.reason === 'reversal' && line.resource === 'chunkEdits').map((l) => l.amount),
    ).toEqual([-300]);
    expect(granted).toBe(1000);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('can end the subscription with the refund, as when someone leaves', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    const [invoice] = await paymentsOf(id);
    const res = await refund(id, invoice?.id ?? '', { endSubscription: true });
    expect(res.statusCode, res.body).toBe(200);
    await settle(ctx);
    const after = await me(client);
    expect(after.plan.name).toBe('none');
    expect(total(after.usageLimits.modelsTrained)).toBe(0);
  });

  it('refuses more than is left, and a payment of someone else', async () => {
    const { client, id } = await signUp(ctx);
    await buyPack(client);
    const [pack] = await paymentsOf(id);
    expect((await refund(id, pack?.id ?? '', { amountCents: 1_000_000 })).statusCode).toBe(400);
    const other = await signUp(ctx);
    expect((await refund(other.id, pack?.id ?? '')).statusCode).toBe(404);
  });
});

describe('at the provider', () => {
  it('takes back a pack refunded in the provider’s dashboard', async () => {
    const { client, id } = await signUp(ctx);
    await buyPack(client);
    const [pack] = await paymentsOf(id);
    const row = await ctx.app.platform.services.billingAdmin.paymentsOf(id);
    expect(row[0]?.id).toBe(pack?.id);
    const paymentIntentId = (await ctx.provider.getCheckout(pack?.id ?? ''))?.paymentIntentId ?? '';
    const price = PACKS.extra_chunk_edits.priceCents;
    const half = Math.floor(price / 2);
    await ctx.provider.refund({ paymentIntentId, amountCents: half, idempotencyKey: 'dashboard' });
    await settle(ctx);
    // That share of the pack's proofreads goes, rounded up.
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(100 - Math.ceil((100 * half) / price));
    expect((await paymentsOf(id))[0]).toMatchObject({ refundedCents: half });
  });

  it('takes back what a disputed payment granted and ends its subscription at once', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    const invoiceId = (await paymentsOf(id))[0]?.id ?? '';
    const invoice = await ctx.provider.getInvoice(invoiceId);
    await ctx.provider.dispute(invoice?.paymentIntentId ?? '');
    await settle(ctx);
    const after = await me(client);
    expect(after.plan.name).toBe('none');
    expect(total(after.usageLimits.chunkEdits)).toBe(0);
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'open' });
    expect(await actionsOf(ctx, id)).toEqual(expect.arrayContaining(['payment_disputed', 'subscription_ended']));

    // Won by us: recorded; nothing comes back by itself (an admin may grant it again).
    await ctx.provider.closeDispute(invoice?.paymentIntentId ?? '', 'won');
    await settle(ctx);
    expect((await paymentsOf(id))[0]).toMatchObject({ disputeStatus: 'won' });
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(0);
    await expectLedgerExplainsBalances(ctx, id);
  });
});
