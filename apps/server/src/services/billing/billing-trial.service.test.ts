// Pay later, through BillingService and the offline provider without HTTP: a card saved through
// a setup checkout starts the trial, once per person, which becomes the minimum plan a day later
// by itself (the billing job, on the service clock) or at once when the person finishes it.
import { addMonthsUtc, EMAIL_MESSAGES, PAY_LATER_FIRST_CHARGE_CENTS, PLANS, TRIAL_ALLOWANCE } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { actionsOf, expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import { freshCard } from '../../test/cards.js';
import { createTrialClaim } from '../../test/factories/billing.js';
import { DAY_MS } from '../../test/factories/rows.js';
import { createUser, onPlan, onTrial } from '../../test/factories/users.js';
import { type BillingServiceContext, ORIGIN, openBillingServiceContext } from '../../test/service-context.js';

let ctx: BillingServiceContext;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
});
afterAll(() => ctx.close());

const setup = async (id: string) => ctx.billing.startTrialSetup(await ctx.reload(id), ORIGIN);
const finish = async (id: string) => ctx.billing.finishTrial(await ctx.reload(id));

async function onTrialNow(): Promise<string> {
  const id = (await createUser(ctx)).id;
  const landing = await ctx.pay(await setup(id));
  expect(landing).toContain(`${ORIGIN}/dashboard/plans/success?session_id=cs_offline_`);
  return id;
}

describe('the pay-later trial', () => {
  it('starts when the card is saved, with the trial allowance and a day to run', async () => {
    const id = await onTrialNow();
    const user = await ctx.view(id);
    expect(user.plan.name).toBe('trial');
    expect(user.plan.trialEndsAt).toBe(new Date(ctx.clock.now().getTime() + DAY_MS).toISOString());
    expect(user.onboarding.step).toBe('trial_ready');
    expect(total(user.usageLimits.modelsTrained)).toBe(TRIAL_ALLOWANCE.resources.modelsTrained);
    expect(user.usageLimits.chunkEdits).toEqual([
      { amount: TRIAL_ALLOWANCE.resources.chunkEdits, expiresAt: addMonthsUtc(ctx.clock.now(), 3).toISOString() },
    ]);
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(TRIAL_ALLOWANCE.storageSlots);
    expect(await ctx.invoicesPaid(id)).toEqual([]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('is given once: a second setup checkout is refused', async () => {
    const id = await onTrialNow();
    await expect(setup(id)).rejects.toMatchObject({ statusCode: 409, code: 'TRIAL_UNAVAILABLE' });
  });

  it('is not for an account on the trial or on a plan, nor for an address that had one', async () => {
    const trial = await createUser(ctx, onTrial(ctx.clock.now()));
    const paying = await createUser(ctx, onPlan('pro', 'monthly', addMonthsUtc(ctx.clock.now(), 1)));
    for (const user of [trial, paying]) {
      await expect(ctx.billing.startTrialSetup(user, ORIGIN)).rejects.toMatchObject({
        statusCode: 409,
        code: 'SUBSCRIPTION_EXISTS',
      });
    }
    const returning = await createUser(ctx);
    await createTrialClaim(ctx, returning.email);
    await expect(ctx.billing.startTrialSetup(returning, ORIGIN)).rejects.toMatchObject({ code: 'TRIAL_UNAVAILABLE' });
    // Refused before anything reached the provider.
    expect((await ctx.reload(returning.id)).providerCustomerId).toBeNull();
  });

  it('starts the minimum plan by itself about a day later, charging the $10 first charge', async () => {
    const id = await onTrialNow();
    await ctx.passTime(DAY_MS - 60_000);
    expect((await ctx.view(id)).plan.name).toBe('trial');

    await ctx.passTime(2 * 60_000);
    const user = await ctx.view(id);
    expect(user.plan).toMatchObject({
      name: 'minimum',
      billingCycle: 'monthly',
      trialEndsAt: null,
      payNowDiscount: false,
    });
    expect(user.subscription.status).toBe('active');
    expect(await ctx.invoicesPaid(id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    // What the trial left carries on beside the plan's first month.
    expect(total(user.usageLimits.chunkEdits)).toBe(
      TRIAL_ALLOWANCE.resources.chunkEdits + PLANS.minimum.perMonth.chunkEdits,
    );
    expect(user.usageLimits.modelStorageSlotsTotal).toBe(PLANS.minimum.storageSlots);

    // Later ticks start nothing more.
    await ctx.passTime(0);
    expect(await ctx.invoicesPaid(id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('starts the minimum plan at once when finished, once however often it is asked', async () => {
    const id = await onTrialNow();
    const results = await Promise.allSettled([finish(id), finish(id)]);
    expect(results.map((r) => r.status)).toContain('fulfilled');
    await ctx.settle();
    expect((await ctx.view(id)).plan.name).toBe('minimum');
    expect(await ctx.invoicesPaid(id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    await expect(finish(id)).rejects.toMatchObject({ statusCode: 400, code: 'NOT_ON_TRIAL' });
    expect(await actionsOf(ctx, id)).toContain('trial_finished');
  });

  it('runs on the billing job: a tick queued on pg-boss starts a trial that is due', async () => {
    const id = await onTrialNow();
    ctx.clock.advance(DAY_MS + 60_000);
    const queue = await ctx.platform.jobs.get();
    await ctx.platform.startBillingSchedule();
    await queue.sendBillingTick();
    await expect.poll(async () => (await ctx.view(id)).plan.name, { timeout: 20_000, interval: 250 }).toBe('minimum');
  });

  it('needs a confirmed address: refused before anything reaches the provider', async () => {
    const user = await createUser(ctx, { emailVerifiedAt: null });
    await expect(ctx.billing.startTrialSetup(user, ORIGIN)).rejects.toMatchObject({
      statusCode: 403,
      code: 'EMAIL_NOT_VERIFIED',
      message: EMAIL_MESSAGES.notVerified(user.email),
    });
    const after = await ctx.view(user.id);
    expect(after.onboarding.step).toBe('registered');
    // No customer was made at the provider, so no checkout either.
    expect(after.plan.name).toBe('none');
    expect((await ctx.reload(user.id)).providerCustomerId).toBeNull();
  });

  it('ends when the person abandons the setup checkout: nothing starts', async () => {
    const id = (await createUser(ctx)).id;
    const session = await setup(id);
    expect(await ctx.provider.abandon(session.id)).toContain('/dashboard/plans/cancel');
    await ctx.settle();
    const user = await ctx.view(id);
    expect(user.plan.name).toBe('none');
    expect(user.onboarding.step).toBe('pay_later_setup_started');
  });

  it('is given once per person: not again to the same address after deletion, nor to the same card', async () => {
    const card = freshCard();
    const first = await createUser(ctx);
    await ctx.startTrial(first.id, card);
    expect((await ctx.view(first.id)).plan.name).toBe('trial');
    await ctx.services.account.erase(await ctx.reload(first.id), {
      userId: first.id,
      actorId: first.id,
      action: 'account_deleted',
      details: 'Deleted by its owner with password',
    });

    // The same address again, even written with a +tag and in capitals: no second trial, said at once.
    const [local, domain] = first.email.split('@');
    const again = await createUser(ctx, { email: `${local}+again@${domain}`.toUpperCase() });
    await expect(ctx.billing.startTrialSetup(again, ORIGIN)).rejects.toMatchObject({
      statusCode: 409,
      code: 'TRIAL_UNAVAILABLE',
    });

    // Another address with the same card: the card is saved, but no trial starts.
    const other = await createUser(ctx);
    await ctx.startTrial(other.id, card);
    const user = await ctx.view(other.id);
    expect(user.plan).toMatchObject({ name: 'none', trialRefused: true });
    expect(total(user.usageLimits.modelsTrained)).toBe(0);
    expect(await actionsOf(ctx, other.id)).toContain('trial_refused');
  });
});
