// Cards that fail, as customers meet them (decision 20.1): the trial's end declined or held for the
// bank's confirmation, a renewal that fails and is retried, an upgrade declined. Nobody is left on
// the trial for ever, nothing is granted before it is paid, and the person is told why and where
// to pay.
import { PAY_LATER_FIRST_CHARGE_CENTS, PLANS, TRIAL_ALLOWANCE } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  actionsOf,
  type BillingTestContext,
  buy,
  CARD_DECLINED_LATER,
  CARD_NEEDS_CONFIRMING,
  createBillingContext,
  customerOf,
  DAY_MS,
  expectLedgerExplainsBalances,
  freshCard,
  invoicesPaid,
  me,
  passTime,
  pressCheckout,
  settle,
  signUp,
  submitCard,
  total,
} from '../../test/billing.js';
import type { TestClient } from '../../test/test-app.js';

let ctx: BillingTestContext;
beforeAll(async () => {
  ctx = await createBillingContext();
});
afterAll(() => ctx.close());

/**
 * A trial whose saved card then behaves as `card` (Stripe has one number of each kind, and a card
 * gets one trial, so each trial starts with a card of its own and then swaps it).
 */
async function onTrialWith(card: string): Promise<{ client: TestClient; id: string }> {
  const { client, id } = await signUp(ctx);
  await buy(ctx, client, '/api/stripe/onboarding/pay-later/setup-session');
  expect((await me(client)).plan.name).toBe('trial');
  await ctx.provider.setCard(await customerOf(ctx, id), card);
  return { client, id };
}

/** The offline invoice page: Pay with `card`. */
async function payInvoicePage(payUrl: string, card = freshCard()) {
  const res = await submitCard(ctx, `${payUrl}/pay`, card);
  await settle(ctx);
  return res;
}

describe('the trial’s end with a card that fails', () => {
  it('says the card was declined, with where to pay, and starts the plan only once it is paid', async () => {
    const { client, id } = await onTrialWith(CARD_DECLINED_LATER);
    const finish = await client.post('/api/auth/finish-trial');
    expect(finish.statusCode).toBe(402);
    const body = finish.json<{ code: string; msg: string; details: { payUrl: string } }>();
    expect(body.code).toBe('PAYMENT_DECLINED');
    expect(body.msg).toContain('$10.00');
    expect(body.msg).toContain('Your card was declined.');
    expect(body.details.payUrl).toMatch(/^\/api\/offline-checkout\/invoice\/in_offline_/);

    const waiting = await me(client);
    expect(waiting.plan.name).toBe('trial');
    expect(waiting.subscription.paymentDue).toMatchObject({
      amountCents: PAY_LATER_FIRST_CHARGE_CENTS,
      payUrl: body.details.payUrl,
      failure: 'Your card was declined.',
      requiresAction: false,
      startsPlan: true,
    });
    expect(total(waiting.usageLimits.chunkEdits)).toBe(TRIAL_ALLOWANCE.resources.chunkEdits);

    // The job does not charge again behind the person's back, and asking again charges nothing new.
    await passTime(ctx, client, 2 * 60 * 60 * 1000);
    expect((await client.post('/api/auth/finish-trial')).statusCode).toBe(402);
    expect(await invoicesPaid(ctx, id)).toEqual([]);
    const subscriptionId = waiting.subscription.stripeSubscriptionId ?? '';
    expect((await ctx.provider.getSubscription(subscriptionId))?.latestInvoiceId).toBe(
      (await ctx.provider.getSubscription(subscriptionId))?.unpaidInvoice?.id,
    );

    const page = await ctx.app.inject({ method: 'GET', url: body.details.payUrl });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Your card was declined.');
    expect((await payInvoicePage(body.details.payUrl, '4000000000000002')).statusCode).toBe(402);
    expect((await payInvoicePage(body.details.payUrl)).statusCode).toBe(303);

    const paid = await me(client);
    expect(paid.plan.name).toBe('minimum');
    expect(paid.subscription.paymentDue).toBeNull();
    expect(await invoicesPaid(ctx, id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    expect(total(paid.usageLimits.chunkEdits)).toBe(
      TRIAL_ALLOWANCE.resources.chunkEdits + PLANS.minimum.perMonth.chunkEdits,
    );
    expect(await actionsOf(ctx, id)).toEqual(expect.arrayContaining(['payment_failed', 'payment_fixed']));
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('asks for the bank’s confirmation (3-D Secure) when the card needs it', async () => {
    const { client } = await onTrialWith(CARD_NEEDS_CONFIRMING);
    const finish = await client.post('/api/auth/finish-trial');
    expect(finish.statusCode).toBe(402);
    expect(finish.json()).toMatchObject({ code: 'PAYMENT_REQUIRES_ACTION' });
    expect((await me(client)).subscription.paymentDue).toMatchObject({ requiresAction: true, startsPlan: true });
  });

  it('ends the trial without a plan when the first payment is not made within the day', async () => {
    const { client, id } = await onTrialWith(CARD_DECLINED_LATER);
    await passTime(ctx, client, DAY_MS + 60_000); // the job charges the card at the trial's end
    expect((await me(client)).subscription.paymentDue).toMatchObject({ startsPlan: true });
    await passTime(ctx, client, DAY_MS);
    const after = await me(client);
    expect(after.plan.name).toBe('none');
    expect(after.subscription.paymentDue).toBeNull();
    expect(await ctx.provider.listSubscriptions(await customerOf(ctx, id))).toEqual([]);
    expect(await actionsOf(ctx, id)).toContain('trial_ended_unpaid');
    expect(await invoicesPaid(ctx, id)).toEqual([]);
  });
});

describe('a renewal that fails', () => {
  it('keeps the plan while the card is retried, grants the period only when paid', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    await ctx.provider.setCard(await customerOf(ctx, id), CARD_DECLINED_LATER);
    await passTime(ctx, client, 32 * DAY_MS);
    const due = await me(client);
    expect(due.plan.name).toBe('pro');
    expect(due.subscription.paymentDue).toMatchObject({ amountCents: 3699, startsPlan: false });
    expect(total(due.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect(await invoicesPaid(ctx, id)).toEqual([3699]);

    await payInvoicePage(due.subscription.paymentDue?.payUrl ?? '');
    const paid = await me(client);
    expect(paid.subscription.paymentDue).toBeNull();
    expect(await invoicesPaid(ctx, id)).toEqual([3699, 3699]);
    expect(total(paid.usageLimits.chunkEdits)).toBe(2 * PLANS.pro.perMonth.chunkEdits);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('ends the subscription after the last retry fails, with nothing granted for the unpaid period', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    await ctx.provider.setCard(await customerOf(ctx, id), CARD_DECLINED_LATER);
    await passTime(ctx, client, 32 * DAY_MS);
    expect((await me(client)).subscription.paymentDue).not.toBeNull();
    for (let day = 0; day < 8; day++) await passTime(ctx, client, DAY_MS);
    const ended = await me(client);
    expect(ended.plan.name).toBe('none');
    expect(ended.subscription.paymentDue).toBeNull();
    expect(await invoicesPaid(ctx, id)).toEqual([899]);
    expect(await actionsOf(ctx, id)).toContain('subscription_ended');
  });
});

describe('an upgrade with a card that fails', () => {
  it('changes nothing, keeps a scheduled downgrade, and says the bank’s reason', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    await client.post('/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    const before = await me(client);
    expect(before.subscription.pendingChange?.plan).toBe('minimum');
    await ctx.provider.setCard(await customerOf(ctx, id), '4000000000009995');

    const upgrade = await client.post('/api/stripe/change-plan', { plan: 'virtuoso', billingCycle: 'monthly' });
    expect(upgrade.statusCode).toBe(402);
    expect(upgrade.json()).toMatchObject({ code: 'PAYMENT_DECLINED' });
    expect(upgrade.json<{ msg: string }>().msg).toContain('insufficient funds');
    await settle(ctx);
    const after = await me(client);
    expect(after.plan).toEqual(before.plan);
    expect(after.subscription).toEqual(before.subscription);
    expect(after.usageLimits).toEqual(before.usageLimits);
    expect(await invoicesPaid(ctx, id)).toEqual([3699]);
  });

  it('says the bank must confirm, when the card needs 3-D Secure, and changes nothing', async () => {
    const { client, id } = await signUp(ctx);
    await buy(ctx, client, '/api/stripe/change-plan', { plan: 'minimum', billingCycle: 'monthly' });
    await ctx.provider.setCard(await customerOf(ctx, id), CARD_NEEDS_CONFIRMING);
    const upgrade = await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' });
    expect(upgrade.statusCode).toBe(402);
    expect(upgrade.json()).toMatchObject({ code: 'PAYMENT_REQUIRES_ACTION' });
    expect((await me(client)).plan.name).toBe('minimum');
  });
});

describe('the test checkout page', () => {
  it('shows the bank’s answer for a declined card and keeps the checkout open to try another', async () => {
    const { client, id } = await signUp(ctx);
    const { url } = (await client.post('/api/stripe/change-plan', { plan: 'pro', billingCycle: 'monthly' })).json<{
      url: string;
    }>();
    const declined = await submitCard(ctx, `${url}/pay`, '4000000000000002');
    expect(declined.statusCode).toBe(402);
    expect(declined.body).toContain('Your card was declined.');
    await pressCheckout(ctx, url, 'pay');
    expect((await me(client)).plan.name).toBe('pro');
    expect(await invoicesPaid(ctx, id)).toEqual([3699]);
  });
});
