// Pay later: a card saved through a setup checkout starts the trial, which becomes the minimum
// plan a day later by itself (on the service clock, through the billing job) or at once.
import { addMonthsUtc, EMAIL_MESSAGES, PAY_LATER_FIRST_CHARGE_CENTS, PLANS, TRIAL_ALLOWANCE } from '@ownvoice/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../db/schema.js';
import {
  actionsOf,
  type BillingTestContext,
  buy,
  createBillingContext,
  DAY_MS,
  expectLedgerExplainsBalances,
  freshCard,
  invoicesPaid,
  me,
  pressCheckout,
  signUp,
  total,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

async function onTrial(): Promise<{ client: TestClient; id: string }> {
  const { client, id } = await signUp(ctx);
  const landing = await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
  expect(landing).toContain('/dashboard/plans/success?session_id=cs_offline_');
  return { client, id };
}

describe('the pay-later trial', () => {
  it('starts when the card is saved, with the trial allowance and a day to run', async () => {
    const { client, id } = await onTrial();
    const user = await me(client);
    expect(user.plan.name).toBe('trial');
    expect(user.plan.trialEndsAt).toBe(new Date(ctx.clock.now().getTime() + DAY_MS).toISOString());
    expect(user.onboarding.step).toBe('trial_ready');
    expect(total(user.usageLimits.modelsTrained)).toBe(TRIAL_ALLOWANCE.resources.modelsTrained);
    expect(user.usageLimits.chunkEdits).toEqual([
      { amount: TRIAL_ALLOWANCE.resources.chunkEdits, expiresAt: addMonthsUtc(ctx.clock.now(), 3).toISOString() },
    ]);
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(TRIAL_ALLOWANCE.storageSlots);
    expect(await invoicesPaid(ctx, id)).toEqual([]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('is given once: a second setup checkout is refused', async () => {
    const { client } = await onTrial();
    const again = await client.post('/api/stripe/onboarding/pay-later/setup-session');
    expect(again.statusCode).toBe(409);
  });

  it('starts the minimum plan by itself about a day later, charging the $10 first charge', async () => {
    const { client, id } = await onTrial();
    ctx.clock.advance(DAY_MS - 60_000);
    await ctx.app.platform.services.billing.tick();
    expect((await me(client)).plan.name).toBe('trial');

    ctx.clock.advance(2 * 60_000);
    await ctx.app.platform.services.billing.tick();
    const user = await me(client);
    expect(user.plan).toMatchObject({
      name: 'minimum',
      billingCycle: 'monthly',
      trialEndsAt: null,
      payNowDiscount: false,
    });
    expect(user.subscription.status).toBe('active');
    expect(await invoicesPaid(ctx, id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    // What the trial left carries on beside the plan's first month.
    expect(total(user.usageLimits.chunkEdits)).toBe(
      TRIAL_ALLOWANCE.resources.chunkEdits + PLANS.minimum.perMonth.chunkEdits,
    );
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(PLANS.minimum.storageSlots);

    // Later ticks start nothing more.
    await ctx.app.platform.services.billing.tick();
    expect(await invoicesPaid(ctx, id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('starts the minimum plan at once on finish-trial, once however often it is asked', async () => {
    const { client, id } = await onTrial();
    const [a, b] = await Promise.all([client.post('/api/auth/finish-trial'), client.post('/api/auth/finish-trial')]);
    expect([a.statusCode, b.statusCode]).toContain(200);
    const user = await me(client);
    expect(user.plan.name).toBe('minimum');
    expect(await invoicesPaid(ctx, id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    const again = await client.post('/api/auth/finish-trial');
    expect(again.statusCode).toBe(400);
    expect(again.json()).toMatchObject({ code: 'NOT_ON_TRIAL' });
  });

  it('runs on the billing job: a tick queued on pg-boss starts a trial that is due', async () => {
    const { client } = await onTrial();
    // Half a day at a time, with the person signed in and using the site.
    ctx.clock.advance(DAY_MS / 2);
    await me(client);
    ctx.clock.advance(DAY_MS / 2 + 60_000);
    const queue = await ctx.app.platform.jobs.get();
    await ctx.app.platform.startBillingSchedule();
    await queue.sendBillingTick();
    await expect.poll(async () => (await me(client)).plan.name, { timeout: 20_000, interval: 250 }).toBe('minimum');
  });

  it('needs a confirmed address: refused before anything reaches the provider', async () => {
    const client = ctx.client();
    const { account } = await client.register(undefined, { confirmed: false });
    const refused = await client.post('/api/stripe/onboarding/pay-later/setup-session');
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'EMAIL_NOT_VERIFIED',
      msg: EMAIL_MESSAGES.notVerified(account.email),
    });
    const user = await me(client);
    expect(user.onboarding.step).toBe('registered');
    // No customer was made at the provider, so no checkout either.
    expect(user.plan.name).toBe('none');
    const [row] = await ctx.database.db.select().from(users).where(eq(users.id, user.id));
    expect(row?.stripeCustomerId).toBeNull();
  });

  it('ends when the person abandons the setup checkout: nothing starts', async () => {
    const client = ctx.client();
    await client.register();
    const { url } = (await client.post('/api/stripe/onboarding/pay-later/setup-session')).json<{ url: string }>();
    expect(await pressCheckout(ctx, url, 'cancel')).toContain('/dashboard/plans/cancel');
    const user = await me(client);
    expect(user.plan.name).toBe('none');
    expect(user.onboarding.step).toBe('pay_later_setup_started');
  });

  it('is given once per person: not again to the same address after deletion, nor to the same card', async () => {
    const card = freshCard();
    const first = ctx.client();
    const { account } = await first.register();
    const { url } = (await first.post('/api/stripe/onboarding/pay-later/setup-session')).json<{ url: string }>();
    await pressCheckout(ctx, url, 'pay', card);
    expect((await me(first)).plan.name).toBe('trial');
    expect((await first.delete('/api/auth/account', { password: account.password })).statusCode).toBe(200);

    // The same address again, even written with a +tag: no second trial, said at once.
    const again = ctx.client();
    const [local, domain] = account.email.split('@');
    await again.register({ ...account, email: `${local}+again@${domain}`.toUpperCase() });
    const refused = await again.post('/api/stripe/onboarding/pay-later/setup-session');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'TRIAL_UNAVAILABLE' });

    // Another address with the same card: the card is saved, but no trial starts.
    const other = ctx.client();
    const { res } = await other.register();
    const otherId: string = res.json().user.id;
    const setup = (await other.post('/api/stripe/onboarding/pay-later/setup-session')).json<{ url: string }>();
    await pressCheckout(ctx, setup.url, 'pay', card);
    const user = await me(other);
    expect(user.plan).toMatchObject({ name: 'none', trialRefused: true });
    expect(total(user.usageLimits.modelsTrained)).toBe(0);
    expect(await actionsOf(ctx, otherId)).toContain('trial_refused');
  });
});
