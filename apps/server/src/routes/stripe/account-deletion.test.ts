// Deleting an account stops every charge (decision 20.1): the subscription ends and open
// checkouts close before anything is deleted, or nothing is deleted; money that still arrives for
// the account is refunded and a subscription that still runs is ended.
import { packCheckoutMetadata } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { payments, users } from '../../db/schema.js';
import { PaymentProviderError } from '../../payments/provider.js';
import {
  adminWithCode,
  type BillingTestContext,
  buy,
  createBillingContext,
  customerOf,
  DAY_MS,
  invoicesPaid,
  openCheckout,
  settle,
  signUp,
  tryPay,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

const PASSWORD = 'Passw0rdOk'; // newAccount's

async function deleteOwnAccount(client: TestClient) {
  return client.delete('/api/auth/account', { password: PASSWORD });
}

async function subscribed(plan: 'minimum' | 'pro' = 'pro') {
  const { client, id } = await signUp(ctx);
  await buy(ctx, client, '/api/stripe/change-plan', { plan, billingCycle: 'monthly' });
  return { client, id, customerId: await customerOf(ctx, id) };
}

const exists = async (id: string) => (await ctx.database.db.select().from(users).where(eq(users.id, id))).length > 0;

describe('deleting an account that pays', () => {
  it('ends the subscription at once, so nothing renews and nothing more is charged', async () => {
    const { client, id, customerId } = await subscribed();
    const open = await openCheckout(client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_model'),
    });
    const res = await deleteOwnAccount(client);
    expect(res.statusCode, res.body).toBe(200);
    expect(await exists(id)).toBe(false);
    expect(await ctx.provider.listSubscriptions(customerId)).toEqual([]);
    expect(await ctx.provider.listOpenCheckouts(customerId)).toEqual([]);
    expect((await tryPay(ctx, open.url)).headers.location).toContain('/dashboard/plans/cancel');

    ctx.clock.advance(70 * DAY_MS);
    await ctx.app.platform.services.billing.tick();
    await settle(ctx);
    expect(await invoicesPaid(ctx, id)).toEqual([3699]);
  });

  it('deletes nothing when the provider cannot end the subscription, and says to try again', async () => {
    const { client, id, customerId } = await subscribed();
    const listSubscriptions = ctx.provider.listSubscriptions;
    ctx.provider.listSubscriptions = async () => {
      throw new PaymentProviderError('Could not reach the payment provider.', 'unavailable', 503);
    };
    try {
      const res = await deleteOwnAccount(client);
      expect(res.statusCode).toBe(503);
      expect(res.json<{ msg: string }>().msg).toContain('nothing was deleted');
    } finally {
      ctx.provider.listSubscriptions = listSubscriptions;
    }
    expect(await exists(id)).toBe(true);
    expect(await ctx.provider.listSubscriptions(customerId)).toHaveLength(1);
    expect((await deleteOwnAccount(client)).statusCode).toBe(200);
    expect(await ctx.provider.listSubscriptions(customerId)).toEqual([]);
  });

  it('ends the subscription when an admin deletes the account too', async () => {
    const admin = await adminWithCode(ctx);
    const { id, customerId } = await subscribed('minimum');
    const res = await admin.client.request('DELETE', `/api/admin/users/${id}`, undefined, {
      'x-mfa-token': admin.code(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await ctx.provider.listSubscriptions(customerId)).toEqual([]);
  });

  it('refunds in full a payment that arrives after the account is gone', async () => {
    const { client, id } = await signUp(ctx);
    const { url } = await openCheckout(client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    // Paid in another tab at the moment of deletion: its event is handled after.
    ctx.provider.deliveryMode = 'manual';
    await tryPay(ctx, url);
    expect((await deleteOwnAccount(client)).statusCode).toBe(200);
    ctx.provider.deliveryMode = 'auto';
    await settle(ctx);
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.userId, id));
    expect(payment).toMatchObject({ outcome: 'rejected' });
    const refunded = ctx.delivered.filter((e) => e.type === 'charge.refunded');
    expect(refunded.at(-1)?.data.object).toMatchObject({ amount_refunded: payment?.amountCents });
  });
});
