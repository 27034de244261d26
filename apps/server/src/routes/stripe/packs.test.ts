// One-time packs: what each adds, for how long, and the way back from running out.
import { addMonthsUtc, PLANS, packCheckoutMetadata } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type BillingTestContext,
  buy,
  createBillingContext,
  expectLedgerExplainsBalances,
  me,
  pressCheckout,
  signUp,
  total,
} from '../../test/billing.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

describe('packs', () => {
  it('adds 100 proofreads lasting three months', async () => {
    const { client, id } = await signUp(ctx);
    const start = await client.post('/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    expect(start.statusCode, start.body).toBe(200);
    const page = await ctx.app.inject({ method: 'GET', url: start.json<{ url: string }>().url });
    expect(page.body).toContain('$4.99');
    await pressCheckout(ctx, start.json<{ url: string }>().url, 'pay');
    expect((await me(client)).usageLimits.chunkEdits).toEqual([
      { amount: 100, expiresAt: addMonthsUtc(ctx.clock.now(), 3).toISOString() },
    ]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('adds storage slots for good, on top of what a plan brings', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_storage_slots'),
    });
    expect((await me(client)).usageLimits.modelStorageSlotsTotal).toBe(50);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    expect((await me(client)).usageLimits.modelStorageSlotsTotal).toBe(50 + PLANS.minimum.storageSlots);
    await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect((await me(client)).usageLimits.modelStorageSlotsTotal).toBe(50 + PLANS.pro.storageSlots);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('refuses metadata that does not match the pack, and unknown packs', async () => {
    const { client } = await signUp(ctx);
    for (const metadata of [
      { pack: 'extra_chunk_edits', chunkEdits: '1000' },
      { pack: 'extra_chunk_edits', shortContent: '100' },
      { pack: 'extra_chunk_edits', chunkEdits: '100', shortContent: '100' },
      { pack: 'free_everything', chunkEdits: '100' },
      { pack: 'extra_model' },
    ]) {
      const res = await client.post('/api/stripe/create-checkout-session', { metadata });
      expect(res.statusCode, JSON.stringify(metadata)).toBe(400);
      expect(res.json()).toMatchObject({ code: 'VALIDATION_ERROR' });
    }
  });

  it('lets someone who ran out of proofreads buy the pack and carry on', async () => {
    const { client, id } = await signUp(ctx);
    const { usage } = ctx.app.platform.services;
    const refused = await usage.consume(id, 'chunkEdits', 1).catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'INSUFFICIENT_LIMIT' });
    await buy(ctx, client, '/api/stripe/create-checkout-session', {
      metadata: packCheckoutMetadata('extra_chunk_edits'),
    });
    await usage.consume(id, 'chunkEdits', 1);
    expect(total((await me(client)).usageLimits.chunkEdits)).toBe(99);
  });

  it('grants nothing for a checkout never paid, or cancelled, even if Pay is pressed afterwards', async () => {
    const { client } = await signUp(ctx);
    await client.post('/api/stripe/create-checkout-session', { metadata: packCheckoutMetadata('extra_model') });
    const { url } = (
      await client.post('/api/stripe/create-checkout-session', {
        metadata: packCheckoutMetadata('extra_short_content'),
      })
    ).json<{ url: string }>();
    await pressCheckout(ctx, url, 'cancel');
    await pressCheckout(ctx, url, 'pay');
    const user = await me(client);
    expect(total(user.usageLimits.modelsTrained)).toBe(0);
    expect(total(user.usageLimits.shortContent)).toBe(0);
  });

  it('is not sold on a server without payments', async () => {
    const { createTestContext } = await import('../../test/test-app.js');
    const plain = await createTestContext();
    try {
      const client = plain.client();
      await client.register();
      const res = await client.post('/api/stripe/create-checkout-session', {
        metadata: packCheckoutMetadata('extra_model'),
      });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'BILLING_DISABLED' });
      expect((await client.get('/api/plans/billing')).json()).toEqual({ provider: 'none', testMode: false });
    } finally {
      await plain.close();
    }
  });
});
