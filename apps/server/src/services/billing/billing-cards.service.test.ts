// Cards that fail, as customers meet them (decision 20.1), through BillingService and the offline
// provider without HTTP: the trial's end declined or held for the bank's confirmation, a renewal
// that fails and is retried, an upgrade declined, a pack paid with another card, a checkout paid
// with a card the bank refuses.
// Nobody is left on the trial for ever, nothing is granted before it is paid, and the person is
// told why and where to pay. The payment pages themselves are routes/stripe/stripe-routes.test.ts's.
import { PAY_LATER_FIRST_CHARGE_CENTS, PLANS, TRIAL_ALLOWANCE } from '@ownvoice/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../errors.js';
import { PaymentProviderError } from '../../payments/provider.js';
import { actionsOf, expectLedgerExplainsBalances, total } from '../../test/account-state.js';
import {
  CARD_DECLINED,
  CARD_DECLINED_LATER,
  CARD_INSUFFICIENT_FUNDS,
  CARD_NEEDS_CONFIRMING,
} from '../../test/cards.js';
import { DAY_MS } from '../../test/factories/rows.js';
import { createUser } from '../../test/factories/users.js';
import { type BillingServiceContext, ORIGIN, openBillingServiceContext } from '../../test/service-context.js';

let ctx: BillingServiceContext;
beforeAll(async () => {
  ctx = await openBillingServiceContext();
});
afterAll(() => ctx.close());

/**
 * A trial whose saved card then behaves as `card` (Stripe has one number of each kind, and a card
 * gets one trial, so each trial starts with a card of its own and then swaps it).
 */
async function onTrialWith(card: string): Promise<string> {
  const { id } = await createUser(ctx);
  expect((await ctx.startTrial(id)).planName).toBe('trial');
  await ctx.provider.setCard(await ctx.customerOf(id), card);
  return id;
}

const finish = async (id: string) => ctx.billing.finishTrial(await ctx.reload(id));
const refusal = async (work: Promise<unknown>): Promise<AppError> => {
  const error = await work.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an AppError, got ${String(error)}`);
  return error;
};
/** The invoice a payment link names (the offline provider's invoice page). */
const invoiceOf = (payUrl: string | null | undefined) => payUrl?.split('/').at(-1) ?? '';

/** Pays an unpaid invoice with `card`, as its page's Pay does, then waits for the events. */
async function payInvoice(payUrl: string | null | undefined, card?: string) {
  try {
    await ctx.provider.payInvoice(invoiceOf(payUrl), card);
  } finally {
    await ctx.settle();
  }
}

describe('the trial’s end with a card that fails', () => {
  it('says the card was declined, with where to pay, and starts the plan only once it is paid', async () => {
    const id = await onTrialWith(CARD_DECLINED_LATER);
    const declined = await refusal(finish(id));
    expect(declined).toMatchObject({ statusCode: 402, code: 'PAYMENT_DECLINED' });
    expect(declined.message).toContain('$10.00');
    expect(declined.message).toContain('Your card was declined.');
    // The bank's words end their own sentence: no second full stop after them.
    expect(declined.message).not.toContain('..');
    const payUrl = declined.details?.payUrl as string;
    expect(payUrl).toMatch(/^\/api\/offline-checkout\/invoice\/in_offline_/);
    await ctx.settle();

    const waiting = await ctx.view(id);
    expect(waiting.plan.name).toBe('trial');
    expect(waiting.subscription.paymentDue).toMatchObject({
      amountCents: PAY_LATER_FIRST_CHARGE_CENTS,
      payUrl,
      failure: 'Your card was declined.',
      requiresAction: false,
      startsPlan: true,
    });
    expect(total(waiting.usageLimits.chunkEdits)).toBe(TRIAL_ALLOWANCE.resources.chunkEdits);

    // The job does not charge again behind the person's back, and asking again charges nothing new.
    await ctx.passTime(2 * 60 * 60 * 1000);
    expect(await refusal(finish(id))).toMatchObject({ statusCode: 402 });
    expect(await ctx.invoicesPaid(id)).toEqual([]);
    const subscriptionId = waiting.subscription.stripeSubscriptionId ?? '';
    const subscription = await ctx.provider.getSubscription(subscriptionId);
    expect(subscription?.latestInvoiceId).toBe(subscription?.unpaidInvoice?.id);
    expect(subscription?.unpaidInvoice?.failure).toBe('Your card was declined.');

    // Another declined card on the invoice's page changes nothing; a working one pays it.
    await expect(payInvoice(payUrl, CARD_DECLINED)).rejects.toBeInstanceOf(PaymentProviderError);
    expect((await ctx.view(id)).plan.name).toBe('trial');
    await payInvoice(payUrl);

    const paid = await ctx.view(id);
    expect(paid.plan.name).toBe('minimum');
    expect(paid.subscription.paymentDue).toBeNull();
    expect(await ctx.invoicesPaid(id)).toEqual([PAY_LATER_FIRST_CHARGE_CENTS]);
    expect(total(paid.usageLimits.chunkEdits)).toBe(
      TRIAL_ALLOWANCE.resources.chunkEdits + PLANS.minimum.perMonth.chunkEdits,
    );
    expect(await actionsOf(ctx, id)).toEqual(expect.arrayContaining(['payment_failed', 'payment_fixed']));
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('asks for the bank’s confirmation (3-D Secure) when the card needs it', async () => {
    const id = await onTrialWith(CARD_NEEDS_CONFIRMING);
    expect(await refusal(finish(id))).toMatchObject({ statusCode: 402, code: 'PAYMENT_REQUIRES_ACTION' });
    await ctx.settle();
    expect((await ctx.view(id)).subscription.paymentDue).toMatchObject({ requiresAction: true, startsPlan: true });
  });

  it('ends the trial without a plan when the first payment is not made within the day', async () => {
    const id = await onTrialWith(CARD_DECLINED_LATER);
    await ctx.passTime(DAY_MS + 60_000); // the job charges the card at the trial's end
    expect((await ctx.view(id)).subscription.paymentDue).toMatchObject({ startsPlan: true });
    await ctx.passTime(DAY_MS);
    const after = await ctx.view(id);
    expect(after.plan.name).toBe('none');
    expect(after.subscription.paymentDue).toBeNull();
    expect(await ctx.provider.listSubscriptions(await ctx.customerOf(id))).toEqual([]);
    expect(await actionsOf(ctx, id)).toContain('trial_ended_unpaid');
    expect(await ctx.invoicesPaid(id)).toEqual([]);
  });
});

describe('a renewal that fails', () => {
  it('keeps the plan while the card is retried, grants the period only when paid', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    await ctx.provider.setCard(await ctx.customerOf(id), CARD_DECLINED_LATER);
    await ctx.passTime(32 * DAY_MS);
    const due = await ctx.view(id);
    expect(due.plan.name).toBe('pro');
    expect(due.subscription.paymentDue).toMatchObject({ amountCents: 3699, startsPlan: false });
    expect(total(due.usageLimits.chunkEdits)).toBe(PLANS.pro.perMonth.chunkEdits);
    expect(await ctx.invoicesPaid(id)).toEqual([3699]);

    await payInvoice(due.subscription.paymentDue?.payUrl);
    const paid = await ctx.view(id);
    expect(paid.subscription.paymentDue).toBeNull();
    expect(await ctx.invoicesPaid(id)).toEqual([3699, 3699]);
    expect(total(paid.usageLimits.chunkEdits)).toBe(2 * PLANS.pro.perMonth.chunkEdits);
    await expectLedgerExplainsBalances(ctx, id);
  });

  it('ends the subscription after the last retry fails, with nothing granted for the unpaid period', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'minimum', 'monthly');
    await ctx.provider.setCard(await ctx.customerOf(id), CARD_DECLINED_LATER);
    await ctx.passTime(32 * DAY_MS);
    expect((await ctx.view(id)).subscription.paymentDue).not.toBeNull();
    for (let day = 0; day < 8; day++) await ctx.passTime(DAY_MS);
    const ended = await ctx.view(id);
    expect(ended.plan.name).toBe('none');
    expect(ended.subscription.paymentDue).toBeNull();
    expect(await ctx.invoicesPaid(id)).toEqual([899]);
    expect(await actionsOf(ctx, id)).toContain('subscription_ended');
  });
});

describe('an upgrade with a card that fails', () => {
  it('changes nothing, keeps a scheduled downgrade, and says the bank’s reason', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'pro', 'monthly');
    await ctx.billing.changePlan(await ctx.reload(id), { plan: 'minimum', billingCycle: 'monthly' }, ORIGIN);
    const before = await ctx.view(id);
    expect(before.subscription.pendingChange?.plan).toBe('minimum');
    await ctx.provider.setCard(await ctx.customerOf(id), CARD_INSUFFICIENT_FUNDS);

    const upgrade = await refusal(
      ctx.billing.changePlan(await ctx.reload(id), { plan: 'virtuoso', billingCycle: 'monthly' }, ORIGIN),
    );
    expect(upgrade).toMatchObject({ statusCode: 402, code: 'PAYMENT_DECLINED' });
    expect(upgrade.message).toContain('insufficient funds');
    await ctx.settle();
    const after = await ctx.view(id);
    expect(after.plan).toEqual(before.plan);
    expect(after.subscription).toEqual(before.subscription);
    expect(after.usageLimits).toEqual(before.usageLimits);
    expect(await ctx.invoicesPaid(id)).toEqual([3699]);
  });

  it('says the bank must confirm, when the card needs 3-D Secure, and changes nothing', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'minimum', 'monthly');
    await ctx.provider.setCard(await ctx.customerOf(id), CARD_NEEDS_CONFIRMING);
    const upgrade = ctx.billing.changePlan(await ctx.reload(id), { plan: 'pro', billingCycle: 'monthly' }, ORIGIN);
    expect(await refusal(upgrade)).toMatchObject({ statusCode: 402, code: 'PAYMENT_REQUIRES_ACTION' });
    expect((await ctx.view(id)).plan.name).toBe('minimum');
  });
});

describe('a pack paid with another card', () => {
  it('leaves the card the plan renews with, as a payment-mode Checkout does at Stripe', async () => {
    const { id } = await createUser(ctx);
    await ctx.subscribe(id, 'minimum', 'monthly');
    // A card whose bank asks to confirm pays on the checkout page, where the buyer can confirm.
    const pack = await ctx.billing.startPackCheckout(await ctx.reload(id), ['extra_chunk_edits'], ORIGIN);
    await ctx.pay(pack, CARD_NEEDS_CONFIRMING);
    await ctx.settle();

    await ctx.passTime(32 * DAY_MS);
    const renewed = await ctx.view(id);
    expect(renewed.subscription.paymentDue).toBeNull();
    expect(renewed.plan.name).toBe('minimum');
    expect(await ctx.invoicesPaid(id)).toEqual([899, 899]);
  });
});

describe('a checkout paid with a card the bank refuses', () => {
  it('gives the bank’s answer and keeps the checkout open to try another', async () => {
    const { id } = await createUser(ctx);
    const session = await ctx.billing.changePlan(
      await ctx.reload(id),
      { plan: 'pro', billingCycle: 'monthly' },
      ORIGIN,
    );
    const declined = await ctx.pay(session, CARD_DECLINED).catch((error: unknown) => error);
    expect(declined).toBeInstanceOf(PaymentProviderError);
    expect(declined).toMatchObject({
      code: 'card_declined',
      message: expect.stringContaining('Your card was declined.'),
    });
    expect((await ctx.provider.findCheckout(session.id))?.status).toBe('open');
    expect((await ctx.view(id)).plan.name).toBe('none');

    await ctx.pay(session);
    expect((await ctx.view(id)).plan.name).toBe('pro');
    expect(await ctx.invoicesPaid(id)).toEqual([3699]);
  });
});
