// The provider through the real SDK against the local Stripe stand-in: what each call sends, what
// it answers, what the failures become, and the events that follow read the way billing reads them.
import { addMonthsUtc, type BillingCycle, PACKS, type PaidPlanName, PLANS, planPriceCents } from '@ownvoice/shared';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpStripeCatalog } from '../billing-setup.js';
import { invoiceGrant } from '../services/billing/invoice-grant.js';
import { RETRY_DAYS, type RecordedRequest, StripeStandIn, type TestCard } from '../test/stripe-stand-in.js';
import { type BillingEvent, PaymentProviderError, WebhookSignatureError } from './provider.js';
import { META, readStripeEvent, signPayload } from './stripe-events.js';
import { createStripeClient, StripeProvider } from './stripe-provider.js';
import { subscriptionStatusOf } from './stripe-read.js';

const WEBHOOK_SECRET = 'whsec_stand_in';
const URLS = {
  successUrl: 'https://ownvoice.test/done?session={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://ownvoice.test/plans',
};
const HOUR_MS = 60 * 60 * 1000;
const PACK_CENTS = PACKS.extra_chunk_edits.priceCents;
const DAY_MS = 24 * HOUR_MS;

let standIn: StripeStandIn;
let stripe: Stripe;
let provider: StripeProvider;
let priceIds: Map<string, string>;
let serial = 0;

beforeAll(async () => {
  standIn = await StripeStandIn.start({ now: new Date('2026-03-10T09:30:00Z') });
  stripe = createStripeClient(standIn.secretKey, standIn.apiBase);
  const report = await setUpStripeCatalog(stripe);
  priceIds = new Map(report.prices.map((p) => [p.lookupKey, p.priceId]));
  provider = new StripeProvider({
    secretKey: standIn.secretKey,
    webhookSecret: WEBHOOK_SECRET,
    apiBase: standIn.apiBase,
  });
});
afterAll(() => standIn.close());
beforeEach(() => {
  standIn.takeEvents();
});

const key = (what: string) => `${what}-${++serial}`;
const priceId = (lookupKey: string) => priceIds.get(lookupKey);
/** Stripe counts in whole seconds. */
const inSeconds = (date: Date) => new Date(Math.floor(date.getTime() / 1000) * 1000);
const later = (ms: number) => new Date(standIn.now.getTime() + ms);

function lastRequest(method: string, path: string | RegExp): RecordedRequest {
  const found = standIn.requests.findLast(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}
const requestsTo = (method: string, path: RegExp) =>
  standIn.requests.filter((r) => r.method === method && path.test(r.path)).length;

const billingEvents = (): BillingEvent[] => standIn.takeEvents().map(readStripeEvent);
/** The events about one subscription: moving the clock renews every other one too. */
const eventsOf = (subscriptionId: string) =>
  billingEvents().filter((event) => 'subscriptionId' in event && event.subscriptionId === subscriptionId);
const typesOf = (events: BillingEvent[]) => events.map((event) => event.type);

async function failure(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof PaymentProviderError)) throw new Error(`expected a PaymentProviderError, got ${error}`);
  return error;
}

async function customer(userId = key('user')) {
  const customerId = await provider.createCustomer({
    userId,
    email: `${userId}@example.com`,
    idempotencyKey: key('cus'),
  });
  return { userId, customerId };
}

/** A person who bought a plan through checkout. */
async function subscribed(plan: PaidPlanName, billingCycle: BillingCycle, payNow = false) {
  const who = await customer();
  const session = await provider.createPlanCheckout({
    ...who,
    ...URLS,
    plan,
    billingCycle,
    payNow,
    idempotencyKey: key('plan'),
  });
  const completed = standIn.completeCheckout(session.id);
  standIn.takeEvents();
  return { ...who, sessionId: session.id, subscriptionId: String(completed.subscription) };
}

/** A person whose pay-later trial saved a card. */
async function trialWithCard(card: TestCard = 'works', fingerprint?: string) {
  const who = await customer();
  const session = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
  const completed = standIn.completeCheckout(session.id, card, { fingerprint });
  standIn.takeEvents();
  return { ...who, sessionId: session.id, setupIntentId: String(completed.setup_intent) };
}

/** A person who bought a pack: answers with the payment. */
async function boughtPack() {
  const who = await customer();
  const session = await provider.createPackCheckout({
    ...who,
    ...URLS,
    packs: ['extra_chunk_edits'],
    idempotencyKey: key('pack'),
  });
  const completed = standIn.completeCheckout(session.id);
  standIn.takeEvents();
  return { ...who, sessionId: session.id, paymentIntentId: String(completed.payment_intent) };
}

describe('StripeProvider', () => {
  it('is the stripe provider, in test mode only with a test key', () => {
    expect(provider.name).toBe('stripe');
    expect(provider.testMode).toBe(true);
    expect(new StripeProvider({ secretKey: 'sk_live_x', webhookSecret: 'w' }).testMode).toBe(false);
  });

  describe('createCustomer', () => {
    it('creates a customer with the email and user id, once per idempotency key', async () => {
      const idempotencyKey = key('cus');
      const input = { userId: 'u1', email: 'one@example.com', idempotencyKey };
      const first = await provider.createCustomer(input);
      const again = await provider.createCustomer(input);
      expect(again).toBe(first);
      expect(lastRequest('POST', '/v1/customers')).toMatchObject({
        params: { email: 'one@example.com', metadata: { [META.userId]: 'u1' } },
        idempotencyKey,
      });
    });
  });

  describe('updateCustomerEmail', () => {
    const emailOf = async (customerId: string) =>
      ((await stripe.customers.retrieve(customerId)) as Stripe.Customer).email;

    it('gives the customer the new address, keeping the rest, once per idempotency key', async () => {
      const { userId, customerId } = await customer();
      const idempotencyKey = key('email');
      await provider.updateCustomerEmail(customerId, 'moved@example.com', idempotencyKey);
      expect(lastRequest('POST', `/v1/customers/${customerId}`)).toMatchObject({
        params: { email: 'moved@example.com' },
        idempotencyKey,
      });
      const updated = (await stripe.customers.retrieve(customerId)) as Stripe.Customer;
      expect(updated).toMatchObject({ email: 'moved@example.com', metadata: { [META.userId]: userId } });
      // Stripe tells of the change, which billing reads and leaves alone.
      expect(billingEvents()).toEqual([expect.objectContaining({ type: 'ignored', stripeType: 'customer.updated' })]);

      await provider.updateCustomerEmail(customerId, 'moved@example.com', idempotencyKey);
      expect(billingEvents()).toEqual([]);
      await provider.updateCustomerEmail(customerId, 'again@example.com', key('email'));
      expect(await emailOf(customerId)).toBe('again@example.com');
    });

    it('says when Stripe has no such customer, or cannot be reached', async () => {
      expect(await failure(provider.updateCustomerEmail('cus_missing', 'x@example.com', key('email')))).toMatchObject({
        code: 'not_found',
        status: 404,
        message: expect.stringMatching(/No such customer: 'cus_missing'/),
      });
      const { userId, customerId } = await customer();
      standIn.outage(true);
      try {
        const error = await failure(provider.updateCustomerEmail(customerId, 'later@example.com', key('email')));
        expect(error).toMatchObject({ code: 'unavailable' });
      } finally {
        standIn.outage(false);
      }
      expect(await emailOf(customerId)).toBe(`${userId}@example.com`);
    });
  });

  describe('checkouts', () => {
    it('sells a plan in subscription mode, with the plan in the subscription metadata', async () => {
      const who = await customer();
      const idempotencyKey = key('plan');
      const session = await provider.createPlanCheckout({
        ...who,
        ...URLS,
        plan: 'pro',
        billingCycle: 'annual',
        payNow: false,
        idempotencyKey,
      });
      expect(session.id).toMatch(/^cs_test_/);
      expect(session.url).toMatch(/^http/);
      const { params } = lastRequest('POST', '/v1/checkout/sessions');
      expect(lastRequest('POST', '/v1/checkout/sessions')).toMatchObject({
        idempotencyKey,
        params: {
          mode: 'subscription',
          customer: who.customerId,
          success_url: URLS.successUrl,
          cancel_url: URLS.cancelUrl,
          line_items: [{ price: priceId('ownvoice_pro_annual'), quantity: '1' }],
          metadata: { [META.userId]: who.userId, [META.kind]: 'plan' },
          subscription_data: {
            metadata: {
              [META.userId]: who.userId,
              [META.plan]: 'pro',
              [META.billingCycle]: 'annual',
              [META.payNow]: 'false',
            },
          },
        },
      });
      // Without Stripe Tax nothing about tax is sent.
      expect(params.automatic_tax).toBeUndefined();
      expect(params.billing_address_collection).toBeUndefined();
    });

    it('uses the pay-now price when the person chose to pay now', async () => {
      await provider.createPlanCheckout({
        ...(await customer()),
        ...URLS,
        plan: 'minimum',
        billingCycle: 'monthly',
        payNow: true,
        idempotencyKey: key('plan'),
      });
      const { params } = lastRequest('POST', '/v1/checkout/sessions');
      expect(params.line_items).toEqual([{ price: priceId('ownvoice_minimum_monthly_pay_now'), quantity: '1' }]);
      expect(params.subscription_data).toMatchObject({ metadata: { [META.payNow]: 'true' } });
    });

    it('gives the same checkout for the same idempotency key', async () => {
      const input = {
        ...(await customer()),
        ...URLS,
        plan: 'pro' as const,
        billingCycle: 'monthly' as const,
        payNow: false,
        idempotencyKey: key('plan'),
      };
      const first = await provider.createPlanCheckout(input);
      expect(await provider.createPlanCheckout(input)).toEqual(first);
    });

    it('saves a card in setup mode for the trial, charging nothing', async () => {
      const who = await customer();
      await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      const { params } = lastRequest('POST', '/v1/checkout/sessions');
      expect(params).toMatchObject({
        mode: 'setup',
        currency: 'usd',
        customer: who.customerId,
        metadata: { [META.userId]: who.userId, [META.kind]: 'trial' },
      });
      expect(params.line_items).toBeUndefined();
    });

    it('sells a pack in payment mode at its one-time price', async () => {
      const who = await customer();
      await provider.createPackCheckout({ ...who, ...URLS, packs: ['extra_chunk_edits'], idempotencyKey: key('pack') });
      expect(lastRequest('POST', '/v1/checkout/sessions').params).toMatchObject({
        mode: 'payment',
        line_items: [{ price: priceId('ownvoice_pack_extra_chunk_edits'), quantity: '1' }],
        metadata: { [META.userId]: who.userId, [META.kind]: 'pack', [META.pack]: 'extra_chunk_edits' },
      });
    });

    it('sells several packs as the lines of one payment, and reads them all back', async () => {
      const who = await customer();
      const session = await provider.createPackCheckout({
        ...who,
        ...URLS,
        packs: ['extra_storage_slots', 'extra_model'],
        idempotencyKey: key('bundle'),
      });
      expect(lastRequest('POST', '/v1/checkout/sessions').params).toMatchObject({
        mode: 'payment',
        line_items: [
          { price: priceId('ownvoice_pack_extra_storage_slots'), quantity: '1' },
          { price: priceId('ownvoice_pack_extra_model'), quantity: '1' },
        ],
        metadata: { [META.pack]: 'extra_storage_slots,extra_model' },
      });
      expect(await provider.getCheckout(session.id)).toMatchObject({
        packs: ['extra_storage_slots', 'extra_model'],
        amountTotalCents: 1499 + 899,
      });
    });
  });

  describe('getCheckout', () => {
    it('reads a paid plan checkout: the subscription it started and its first invoice', async () => {
      const { sessionId, subscriptionId, userId, customerId } = await subscribed('pro', 'monthly');
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      expect(await provider.getCheckout(sessionId)).toEqual({
        id: sessionId,
        kind: 'plan',
        userId,
        customerId,
        status: 'complete',
        paid: true,
        amountTotalCents: planPriceCents('pro', 'monthly', { payNow: false }),
        createdAt: inSeconds(standIn.now),
        packs: [],
        subscriptionId,
        invoiceId: subscription.latest_invoice,
        setupIntentId: null,
        paymentIntentId: null,
      });
    });

    it('reads a pack checkout with its payment, and a trial checkout with its SetupIntent', async () => {
      const pack = await boughtPack();
      expect(await provider.getCheckout(pack.sessionId)).toMatchObject({
        kind: 'pack',
        packs: ['extra_chunk_edits'],
        paid: true,
        paymentIntentId: pack.paymentIntentId,
        subscriptionId: null,
      });
      const trial = await trialWithCard();
      expect(await provider.getCheckout(trial.sessionId)).toMatchObject({
        kind: 'trial',
        status: 'complete',
        paid: true,
        amountTotalCents: 0,
        setupIntentId: trial.setupIntentId,
      });
    });

    it('answers null for a checkout Stripe does not have or OwnVoice did not make', async () => {
      expect(await provider.getCheckout('cs_test_unknown')).toBeNull();
      const { customerId } = await customer();
      const foreign = await stripe.checkout.sessions.create({
        mode: 'setup',
        currency: 'usd',
        customer: customerId,
        success_url: URLS.successUrl,
      });
      expect(await provider.getCheckout(foreign.id)).toBeNull();
    });
  });

  describe('listOpenCheckouts and expireCheckout', () => {
    it('lists the customer’s own open checkouts, and closes one so it can no longer be paid', async () => {
      const who = await customer();
      const plan = await provider.createPlanCheckout({
        ...who,
        ...URLS,
        plan: 'pro',
        billingCycle: 'monthly',
        payNow: false,
        idempotencyKey: key('plan'),
      });
      const trial = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      const paid = await provider.createPackCheckout({
        ...who,
        ...URLS,
        packs: ['extra_model'],
        idempotencyKey: key('pack'),
      });
      standIn.completeCheckout(paid.id);
      await stripe.checkout.sessions.create({
        mode: 'setup',
        currency: 'usd',
        customer: who.customerId,
        success_url: URLS.successUrl,
      });
      await boughtPack(); // someone else's
      standIn.takeEvents();

      const open = await provider.listOpenCheckouts(who.customerId);
      expect(open.map((session) => session.id).sort()).toEqual([plan.id, trial.id].sort());
      expect(lastRequest('GET', '/v1/checkout/sessions').params).toMatchObject({
        customer: who.customerId,
        status: 'open',
      });

      await provider.expireCheckout(plan.id);
      expect(lastRequest('POST', `/v1/checkout/sessions/${plan.id}/expire`)).toBeTruthy();
      expect(billingEvents()).toEqual([
        expect.objectContaining({ type: 'checkout.expired', sessionId: plan.id, userId: who.userId }),
      ]);
      expect((await provider.listOpenCheckouts(who.customerId)).map((session) => session.id)).toEqual([trial.id]);
      expect(() => standIn.completeCheckout(plan.id)).toThrow(/expired, not open/);
    });

    it('leaves a checkout that was paid or expired already as it is', async () => {
      const { sessionId } = await boughtPack();
      await provider.expireCheckout(sessionId);
      expect(await provider.getCheckout(sessionId)).toMatchObject({ status: 'complete' });
      const who = await customer();
      const trial = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      await provider.expireCheckout(trial.id);
      await provider.expireCheckout(trial.id);
      expect(await provider.getCheckout(trial.id)).toMatchObject({ status: 'expired' });
    });

    it('says when there is no such checkout', async () => {
      expect(await failure(provider.expireCheckout('cs_test_unknown'))).toMatchObject({ code: 'not_found' });
    });

    it('sees a checkout expire by itself a day after it was made', async () => {
      const who = await customer();
      const session = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      standIn.advanceTo(later(DAY_MS - 1000));
      expect(await provider.getCheckout(session.id)).toMatchObject({ status: 'open' });
      standIn.takeEvents();
      standIn.advanceTo(later(1000));
      expect(billingEvents()).toContainEqual(
        expect.objectContaining({ type: 'checkout.expired', sessionId: session.id }),
      );
      expect(await provider.listOpenCheckouts(who.customerId)).toEqual([]);
    });
  });

  describe('the events a completed checkout sends, as billing reads them', () => {
    it('a plan: the subscription, its first paid invoice, then the completed checkout', async () => {
      const who = await customer();
      const session = await provider.createPlanCheckout({
        ...who,
        ...URLS,
        plan: 'virtuoso',
        billingCycle: 'annual',
        payNow: true,
        idempotencyKey: key('plan'),
      });
      standIn.completeCheckout(session.id);
      const [created, paid, completed] = billingEvents();
      expect(created).toMatchObject({ type: 'subscription.changed', userId: who.userId, customerId: who.customerId });
      const subscriptionId = created?.type === 'subscription.changed' ? created.subscriptionId : '';
      expect(paid).toMatchObject({ type: 'invoice.paid', subscriptionId, userId: who.userId });
      expect(completed).toMatchObject({
        type: 'checkout.completed',
        sessionId: session.id,
        userId: who.userId,
        customerId: who.customerId,
      });
    });

    it('a pack and a trial: one completed checkout each', async () => {
      const who = await customer();
      const pack = await provider.createPackCheckout({
        ...who,
        ...URLS,
        packs: ['extra_model'],
        idempotencyKey: key('p'),
      });
      standIn.completeCheckout(pack.id);
      const trial = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      standIn.completeCheckout(trial.id);
      expect(billingEvents()).toEqual([
        expect.objectContaining({ type: 'checkout.completed', sessionId: pack.id }),
        expect.objectContaining({ type: 'checkout.completed', sessionId: trial.id }),
      ]);
    });

    it('a declined card leaves the checkout open, and another card pays it', async () => {
      const who = await customer();
      const session = await provider.createPackCheckout({
        ...who,
        ...URLS,
        packs: ['extra_model'],
        idempotencyKey: key('p'),
      });
      expect(() => standIn.completeCheckout(session.id, 'declines')).toThrow(/declined/);
      expect(await provider.getCheckout(session.id)).toMatchObject({ status: 'open', paid: false });
      expect(billingEvents()).toEqual([]);
      standIn.completeCheckout(session.id, 'requires_action'); // Checkout runs the bank's challenge
      expect(await provider.getCheckout(session.id)).toMatchObject({ status: 'complete', paid: true });
    });
  });

  describe('getSubscription', () => {
    it('reports the plan, cycle, pay-now discount, period and latest invoice of a subscription', async () => {
      const start = inSeconds(standIn.now);
      const { subscriptionId, userId, customerId } = await subscribed('pro', 'monthly', true);
      const { latest_invoice } = await stripe.subscriptions.retrieve(subscriptionId);
      expect(await provider.getSubscription(subscriptionId)).toEqual({
        id: subscriptionId,
        customerId,
        userId,
        plan: 'pro',
        billingCycle: 'monthly',
        payNow: true,
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodStart: start,
        currentPeriodEnd: addMonthsUtc(start, 1),
        scheduledChange: null,
        unpaidInvoice: null,
        latestInvoiceId: latest_invoice,
      });
    });

    it('answers null for a subscription Stripe does not have or OwnVoice did not make', async () => {
      expect(await provider.getSubscription('sub_unknown')).toBeNull();
      const { customerId } = await customer();
      const foreign = await stripe.subscriptions.create({
        customer: customerId,
        items: [{ price: priceId('ownvoice_pro_monthly') ?? '' }],
      });
      expect(await provider.getSubscription(foreign.id)).toBeNull();
    });

    it.each([
      ['active', 'active'],
      ['trialing', 'active'],
      ['past_due', 'past_due'],
      ['canceled', 'canceled'],
      ['unpaid', 'canceled'],
      ['incomplete_expired', 'canceled'],
      ['incomplete', 'incomplete'],
      ['paused', 'incomplete'],
    ] as const)('reads Stripe status %s as %s', (stripeStatus, status) => {
      expect(subscriptionStatusOf(stripeStatus)).toBe(status);
    });
  });

  describe('listSubscriptions', () => {
    it('lists the customer’s own subscriptions that have not ended', async () => {
      const { subscriptionId, customerId, userId } = await subscribed('pro', 'monthly');
      const second = await provider.createPlanCheckout({
        customerId,
        userId,
        ...URLS,
        plan: 'minimum',
        billingCycle: 'annual',
        payNow: false,
        idempotencyKey: key('plan'),
      });
      const secondId = String(standIn.completeCheckout(second.id).subscription);
      await stripe.subscriptions.create({
        customer: customerId,
        items: [{ price: priceId('ownvoice_pro_monthly') ?? '' }],
      });
      expect((await provider.listSubscriptions(customerId)).map((state) => state.id).sort()).toEqual(
        [subscriptionId, secondId].sort(),
      );
      await provider.cancelNow(secondId, key('end'));
      expect(await provider.listSubscriptions(customerId)).toEqual([
        expect.objectContaining({ id: subscriptionId, plan: 'pro', status: 'active' }),
      ]);
    });
  });

  describe('upgrade', () => {
    it('starts a new period of the new plan now, charged in full with no credit', async () => {
      const { subscriptionId, userId } = await subscribed('minimum', 'monthly');
      standIn.advanceTo(later(10 * DAY_MS));
      const now = inSeconds(standIn.now);
      const idempotencyKey = key('upgrade');
      const { state, invoiceId } = await provider.upgrade(
        subscriptionId,
        { plan: 'pro', billingCycle: 'monthly' },
        idempotencyKey,
      );
      expect(state).toMatchObject({
        plan: 'pro',
        billingCycle: 'monthly',
        payNow: false,
        status: 'active',
        currentPeriodStart: now,
        currentPeriodEnd: addMonthsUtc(now, 1),
        latestInvoiceId: invoiceId,
      });
      expect(lastRequest('POST', `/v1/subscriptions/${subscriptionId}`)).toMatchObject({
        idempotencyKey: `${idempotencyKey}:update`,
        params: {
          items: [{ price: priceId('ownvoice_pro_monthly'), quantity: '1' }],
          billing_cycle_anchor: { type: 'now' },
          proration_behavior: 'none',
          payment_behavior: 'error_if_incomplete',
          cancel_at_period_end: 'false',
          metadata: {
            [META.userId]: userId,
            [META.plan]: 'pro',
            [META.billingCycle]: 'monthly',
            [META.payNow]: 'false',
          },
        },
      });
      expect(eventsOf(subscriptionId)).toContainEqual(expect.objectContaining({ type: 'invoice.paid', invoiceId }));
      const invoice = await provider.getInvoice(invoiceId);
      expect(invoice).toMatchObject({
        status: 'paid',
        totalCents: planPriceCents('pro', 'monthly', { payNow: false }),
        amountPaidCents: planPriceCents('pro', 'monthly', { payNow: false }),
        lines: [
          {
            kind: 'plan',
            plan: { plan: 'pro', billingCycle: 'monthly', payNow: false },
            proration: false,
            periodStart: now,
            periodEnd: addMonthsUtc(now, 1),
          },
        ],
      });
    });

    it('keeps the pay-now discount on the new plan and cycle', async () => {
      const { subscriptionId } = await subscribed('minimum', 'monthly', true);
      const { state } = await provider.upgrade(subscriptionId, { plan: 'minimum', billingCycle: 'annual' }, key('up'));
      expect(state).toMatchObject({ plan: 'minimum', billingCycle: 'annual', payNow: true });
      expect(lastRequest('POST', `/v1/subscriptions/${subscriptionId}`).params.items).toEqual([
        expect.objectContaining({ price: priceId('ownvoice_minimum_annual_pay_now') }),
      ]);
      expect(state.currentPeriodEnd).toEqual(addMonthsUtc(state.currentPeriodStart, 12));
    });

    it('changes nothing when the card is declined, saying the bank’s reason', async () => {
      const { subscriptionId, customerId } = await subscribed('minimum', 'monthly');
      const before = await provider.getSubscription(subscriptionId);
      standIn.setCustomerCard(customerId, 'declines');
      const error = await failure(
        provider.upgrade(subscriptionId, { plan: 'virtuoso', billingCycle: 'monthly' }, key('upgrade')),
      );
      expect(error).toMatchObject({ code: 'card_declined', status: 402 });
      expect(error.message).toMatch(/Your card was declined\..*Nothing was charged/);
      expect(await provider.getSubscription(subscriptionId)).toEqual(before);
      expect(billingEvents()).toEqual([]);
    });

    it('changes nothing when the bank asks to confirm the payment', async () => {
      const { subscriptionId, customerId } = await subscribed('minimum', 'monthly');
      standIn.setCustomerCard(customerId, 'requires_action');
      const error = await failure(
        provider.upgrade(subscriptionId, { plan: 'pro', billingCycle: 'annual' }, key('upgrade')),
      );
      expect(error).toMatchObject({ code: 'requires_action', status: 402 });
      expect(error.message).toMatch(/3-D Secure.*Nothing was charged/);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ plan: 'minimum', status: 'active' });
    });

    it('drops a scheduled downgrade once the charge succeeds', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      await provider.scheduleDowngrade(subscriptionId, { plan: 'minimum', billingCycle: 'monthly' }, key('down'));
      const { state } = await provider.upgrade(
        subscriptionId,
        { plan: 'virtuoso', billingCycle: 'monthly' },
        key('up'),
      );
      expect(state).toMatchObject({ plan: 'virtuoso', scheduledChange: null });
      standIn.advanceTo(state.currentPeriodEnd);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ plan: 'virtuoso' });
    });

    it('keeps a scheduled downgrade when the charge fails', async () => {
      const { subscriptionId, customerId } = await subscribed('pro', 'annual');
      const scheduled = await provider.scheduleDowngrade(
        subscriptionId,
        { plan: 'minimum', billingCycle: 'monthly' },
        key('down'),
      );
      standIn.setCustomerCard(customerId, 'declines');
      const idempotencyKey = key('up');
      await expect(
        provider.upgrade(subscriptionId, { plan: 'virtuoso', billingCycle: 'annual' }, idempotencyKey),
      ).rejects.toMatchObject({ code: 'card_declined' });
      expect(lastRequest('POST', /^\/v1\/subscription_schedules\/[^/]+\/release$/).idempotencyKey).toBe(
        `${idempotencyKey}:release`,
      );
      const after = await provider.getSubscription(subscriptionId);
      expect(after).toMatchObject({ plan: 'pro', scheduledChange: scheduled.scheduledChange });
    });

    it('refuses a subscription that has ended, or whose first payment is still due', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      await provider.cancelNow(subscriptionId, key('end'));
      expect(
        await failure(provider.upgrade(subscriptionId, { plan: 'virtuoso', billingCycle: 'monthly' }, key('up'))),
      ).toMatchObject({ code: 'ended' });

      const trial = await trialWithCard();
      standIn.setCustomerCard(trial.customerId, 'declines');
      const incomplete = await provider.startPlanAfterTrial({ ...trial, idempotencyKey: key('after-trial') });
      expect(
        await failure(provider.upgrade(incomplete.id, { plan: 'pro', billingCycle: 'monthly' }, key('up'))),
      ).toMatchObject({ code: 'refused', message: expect.stringMatching(/pay that invoice first/) });
    });
  });

  describe('scheduleDowngrade', () => {
    it('schedules the lower price and plan for the next period, which the renewal applies', async () => {
      const { subscriptionId, userId } = await subscribed('virtuoso', 'monthly');
      const before = await provider.getSubscription(subscriptionId);
      const periodEnd = before?.currentPeriodEnd ?? new Date();
      const idempotencyKey = key('down');
      const state = await provider.scheduleDowngrade(
        subscriptionId,
        { plan: 'minimum', billingCycle: 'monthly' },
        idempotencyKey,
      );
      expect(state).toMatchObject({
        plan: 'virtuoso',
        billingCycle: 'monthly',
        scheduledChange: { plan: 'minimum', billingCycle: 'monthly', effectiveAt: periodEnd },
      });
      expect(lastRequest('POST', '/v1/subscription_schedules')).toMatchObject({
        idempotencyKey: `${idempotencyKey}:schedule`,
        params: { from_subscription: subscriptionId },
      });
      const phases = lastRequest('POST', /^\/v1\/subscription_schedules\/[^/]+$/);
      expect(phases.idempotencyKey).toBe(`${idempotencyKey}:phases`);
      expect(phases.params).toMatchObject({
        end_behavior: 'release',
        phases: [
          {
            items: [{ price: priceId('ownvoice_virtuoso_monthly') }],
            end_date: String(periodEnd.getTime() / 1000),
            proration_behavior: 'none',
          },
          {
            items: [{ price: priceId('ownvoice_minimum_monthly') }],
            duration: { interval: 'month', interval_count: '1' },
            metadata: { [META.userId]: userId, [META.plan]: 'minimum', [META.billingCycle]: 'monthly' },
            proration_behavior: 'none',
          },
        ],
      });
      // The same interval keeps the period boundary, so nothing is said about the anchor.
      expect(phases.params.phases).toEqual([
        expect.not.objectContaining({ billing_cycle_anchor: expect.anything() }),
        expect.not.objectContaining({ billing_cycle_anchor: expect.anything() }),
      ]);
      standIn.takeEvents();

      standIn.advanceTo(periodEnd);
      const paid = eventsOf(subscriptionId).find((event) => event.type === 'invoice.paid');
      const invoiceId = paid?.type === 'invoice.paid' ? paid.invoiceId : '';
      expect((await stripe.invoices.retrieve(invoiceId)).billing_reason).toBe('subscription_cycle');
      expect(await provider.getInvoice(invoiceId)).toMatchObject({
        totalCents: 899,
        userId,
        lines: [
          {
            kind: 'plan',
            plan: { plan: 'minimum', billingCycle: 'monthly', payNow: false },
            periodStart: periodEnd,
            periodEnd: addMonthsUtc(periodEnd, 1),
          },
        ],
      });
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({
        plan: 'minimum',
        billingCycle: 'monthly',
        scheduledChange: null,
      });
    });

    it('starts the new interval at the phase start, invoiced as a change of the subscription', async () => {
      const { subscriptionId } = await subscribed('pro', 'annual');
      const periodEnd = (await provider.getSubscription(subscriptionId))?.currentPeriodEnd ?? new Date();
      await provider.scheduleDowngrade(subscriptionId, { plan: 'pro', billingCycle: 'monthly' }, key('down'));
      expect(lastRequest('POST', /^\/v1\/subscription_schedules\/[^/]+$/).params.phases).toEqual([
        expect.not.objectContaining({ billing_cycle_anchor: expect.anything() }),
        expect.objectContaining({ billing_cycle_anchor: 'phase_start' }),
      ]);
      standIn.takeEvents();
      standIn.advanceTo(periodEnd);
      const paid = eventsOf(subscriptionId).find((event) => event.type === 'invoice.paid');
      const invoiceId = paid?.type === 'invoice.paid' ? paid.invoiceId : '';
      expect((await stripe.invoices.retrieve(invoiceId)).billing_reason).toBe('subscription_update');
      // What the invoice charged is read from its lines, whatever the reason.
      expect((await provider.getInvoice(invoiceId))?.lines).toEqual([
        expect.objectContaining({
          kind: 'plan',
          plan: { plan: 'pro', billingCycle: 'monthly', payNow: false },
          periodStart: periodEnd,
          periodEnd: addMonthsUtc(periodEnd, 1),
        }),
      ]);
    });

    it('changes the waiting downgrade when asked again, on the same schedule', async () => {
      const { subscriptionId } = await subscribed('virtuoso', 'monthly');
      const schedulesBefore = requestsTo('POST', /^\/v1\/subscription_schedules$/);
      await provider.scheduleDowngrade(subscriptionId, { plan: 'minimum', billingCycle: 'monthly' }, key('down'));
      const state = await provider.scheduleDowngrade(
        subscriptionId,
        { plan: 'pro', billingCycle: 'monthly' },
        key('down'),
      );
      expect(state.scheduledChange).toMatchObject({ plan: 'pro', billingCycle: 'monthly' });
      expect(requestsTo('POST', /^\/v1\/subscription_schedules$/)).toBe(schedulesBefore + 1);
    });

    it('keeps a subscription that was set to cancel going', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      await provider.cancelAtPeriodEnd(subscriptionId);
      const state = await provider.scheduleDowngrade(
        subscriptionId,
        { plan: 'minimum', billingCycle: 'monthly' },
        key('down'),
      );
      expect(state).toMatchObject({ cancelAtPeriodEnd: false, scheduledChange: { plan: 'minimum' } });
    });
  });

  describe('cancelAtPeriodEnd and reactivate', () => {
    it('sets and clears the cancellation, which ends the subscription at the period end', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      const canceled = await provider.cancelAtPeriodEnd(subscriptionId);
      expect(canceled).toMatchObject({ status: 'active', cancelAtPeriodEnd: true });
      expect(await provider.reactivate(subscriptionId)).toMatchObject({ status: 'active', cancelAtPeriodEnd: false });

      await provider.cancelAtPeriodEnd(subscriptionId);
      standIn.takeEvents();
      standIn.advanceTo(canceled.currentPeriodEnd);
      expect(eventsOf(subscriptionId)).toEqual([
        expect.objectContaining({ type: 'subscription.changed', subscriptionId }),
      ]);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ status: 'canceled' });
      const error = await failure(provider.reactivate(subscriptionId));
      expect(error).toMatchObject({
        code: 'ended',
        message: expect.stringMatching(/has ended and cannot be reactivated/),
      });
    });

    it('drops a scheduled downgrade when canceling', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      await provider.scheduleDowngrade(subscriptionId, { plan: 'minimum', billingCycle: 'monthly' }, key('down'));
      expect(await provider.cancelAtPeriodEnd(subscriptionId)).toMatchObject({
        cancelAtPeriodEnd: true,
        scheduledChange: null,
      });
    });
  });

  describe('cancelNow', () => {
    it('ends the subscription at once, with no final invoice and no credit', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      const invoicesBefore = (await stripe.invoices.list({ subscription: subscriptionId })).data.length;
      await provider.cancelNow(subscriptionId, key('end'));
      expect(lastRequest('DELETE', `/v1/subscriptions/${subscriptionId}`).params).toEqual({
        invoice_now: 'false',
        prorate: 'false',
      });
      expect(eventsOf(subscriptionId)).toEqual([expect.objectContaining({ type: 'subscription.changed' })]);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ status: 'canceled' });
      expect((await stripe.invoices.list({ subscription: subscriptionId })).data).toHaveLength(invoicesBefore);
      // Ended already: nothing to do, and no error.
      await provider.cancelNow(subscriptionId, key('end'));
    });

    it('ends a subscription a schedule manages through its schedule', async () => {
      const { subscriptionId } = await subscribed('virtuoso', 'annual');
      await provider.scheduleDowngrade(subscriptionId, { plan: 'pro', billingCycle: 'annual' }, key('down'));
      const idempotencyKey = key('end');
      await provider.cancelNow(subscriptionId, idempotencyKey);
      expect(lastRequest('POST', /^\/v1\/subscription_schedules\/[^/]+\/cancel$/)).toMatchObject({
        idempotencyKey,
        params: { invoice_now: 'false', prorate: 'false' },
      });
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({
        status: 'canceled',
        scheduledChange: null,
      });
    });

    it('says when there is no such subscription', async () => {
      expect(await failure(provider.cancelNow('sub_unknown', key('end')))).toMatchObject({ code: 'not_found' });
    });
  });

  describe('a renewal whose card fails', () => {
    async function failedRenewal() {
      const subscription = await subscribed('minimum', 'monthly');
      const periodEnd = (await provider.getSubscription(subscription.subscriptionId))?.currentPeriodEnd ?? new Date();
      standIn.setCustomerCard(subscription.customerId, 'declines');
      standIn.advanceTo(periodEnd);
      return { ...subscription, periodEnd };
    }

    it('keeps the plan past due, with the invoice to pay and the bank’s reason', async () => {
      const { subscriptionId, periodEnd } = await failedRenewal();
      expect(typesOf(eventsOf(subscriptionId))).toEqual(['subscription.changed', 'invoice.payment_failed']);
      const state = await provider.getSubscription(subscriptionId);
      expect(state).toMatchObject({
        status: 'past_due',
        plan: 'minimum',
        currentPeriodStart: periodEnd,
        unpaidInvoice: {
          id: state?.latestInvoiceId,
          amountDueCents: 899,
          payUrl: expect.stringMatching(/^http/),
          failure: 'Your card was declined.',
          requiresAction: false,
        },
      });
      expect(await provider.getInvoice(state?.latestInvoiceId ?? '')).toMatchObject({
        status: 'open',
        paidAt: null,
        paymentIntentId: null,
      });
    });

    it('is tried again after 3, 5 and 7 days, and a retry that works pays it', async () => {
      const { subscriptionId, customerId, periodEnd } = await failedRenewal();
      standIn.advanceTo(new Date(periodEnd.getTime() + RETRY_DAYS[0] * DAY_MS));
      expect(typesOf(eventsOf(subscriptionId))).toContain('invoice.payment_failed');
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ status: 'past_due' });

      standIn.setCustomerCard(customerId, 'works');
      const retry = new Date(periodEnd.getTime() + RETRY_DAYS[1] * DAY_MS);
      standIn.advanceTo(retry);
      expect(typesOf(eventsOf(subscriptionId))).toEqual(['invoice.paid', 'subscription.changed']);
      const state = await provider.getSubscription(subscriptionId);
      expect(state).toMatchObject({ status: 'active', unpaidInvoice: null });
      expect(await provider.getInvoice(state?.latestInvoiceId ?? '')).toMatchObject({
        status: 'paid',
        paidAt: retry,
        paymentIntentId: expect.stringMatching(/^pi_/),
      });
    });

    it('ends the subscription when the last retry fails', async () => {
      const { subscriptionId, periodEnd } = await failedRenewal();
      standIn.advanceTo(new Date(periodEnd.getTime() + (RETRY_DAYS.at(-1) ?? 0) * DAY_MS));
      expect(typesOf(eventsOf(subscriptionId)).slice(-2)).toEqual(['invoice.payment_failed', 'subscription.changed']);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ status: 'canceled' });
    });

    it('is paid by the person on the invoice’s page', async () => {
      const { subscriptionId } = await failedRenewal();
      const state = await provider.getSubscription(subscriptionId);
      standIn.takeEvents();
      standIn.payInvoice(state?.unpaidInvoice?.id ?? '');
      expect(typesOf(eventsOf(subscriptionId))).toEqual(['invoice.paid', 'subscription.changed']);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ status: 'active', unpaidInvoice: null });
    });
  });

  describe('startPlanAfterTrial', () => {
    it('starts the minimum plan on the saved card, with a first invoice of the month and the trial day', async () => {
      const { userId, customerId, setupIntentId } = await trialWithCard();
      const card = (await stripe.setupIntents.retrieve(setupIntentId)).payment_method;
      const idempotencyKey = key('after-trial');
      const state = await provider.startPlanAfterTrial({ userId, customerId, setupIntentId, idempotencyKey });
      expect(state).toMatchObject({
        userId,
        customerId,
        plan: 'minimum',
        billingCycle: 'monthly',
        payNow: false,
        status: 'active',
        unpaidInvoice: null,
      });
      expect(lastRequest('POST', '/v1/subscriptions')).toMatchObject({
        idempotencyKey,
        params: {
          customer: customerId,
          default_payment_method: card,
          off_session: 'true',
          payment_behavior: 'allow_incomplete',
          items: [{ price: priceId('ownvoice_minimum_monthly') }],
          add_invoice_items: [{ price: priceId('ownvoice_trial_first_charge') }],
        },
      });
      const paid = billingEvents().find((event) => event.type === 'invoice.paid');
      expect(paid).toMatchObject({ subscriptionId: state.id, userId, invoiceId: state.latestInvoiceId });
      const invoice = await provider.getInvoice(state.latestInvoiceId ?? '');
      expect(invoice).toMatchObject({ status: 'paid', totalCents: 1000, amountPaidCents: 1000 });
      expect(invoice?.lines.map((line) => [line.kind, line.amountCents])).toEqual([
        ['plan', 899],
        ['trial_day', 101],
      ]);

      const again = await provider.startPlanAfterTrial({ userId, customerId, setupIntentId, idempotencyKey });
      expect(again.id).toBe(state.id);
    });

    it('answers an incomplete subscription whose invoice says the card was declined', async () => {
      const trial = await trialWithCard();
      standIn.setCustomerCard(trial.customerId, 'declines');
      const state = await provider.startPlanAfterTrial({ ...trial, idempotencyKey: key('after-trial') });
      expect(state).toMatchObject({
        status: 'incomplete',
        unpaidInvoice: {
          id: state.latestInvoiceId,
          amountDueCents: 1000,
          payUrl: expect.stringMatching(/^http/),
          failure: 'Your card was declined.',
          requiresAction: false,
        },
      });
      expect(typesOf(eventsOf(state.id))).toEqual(['subscription.changed', 'invoice.payment_failed']);
    });

    it('answers an incomplete subscription when the bank asks to confirm, paid on the invoice’s page', async () => {
      const trial = await trialWithCard('requires_action');
      const state = await provider.startPlanAfterTrial({ ...trial, idempotencyKey: key('after-trial') });
      expect(state).toMatchObject({ status: 'incomplete', unpaidInvoice: { requiresAction: true, failure: null } });
      expect(typesOf(eventsOf(state.id))).toEqual(['subscription.changed', 'invoice.payment_failed']);

      standIn.payInvoice(state.unpaidInvoice?.id ?? '', 'requires_action'); // confirmed on the page
      expect(typesOf(eventsOf(state.id))).toEqual(['invoice.paid', 'subscription.changed']);
      expect(await provider.getSubscription(state.id)).toMatchObject({ status: 'active', unpaidInvoice: null });
      expect(await provider.getInvoice(state.latestInvoiceId ?? '')).toMatchObject({ status: 'paid' });
    });

    it('lets an unpaid first invoice expire after 23 hours, ending the subscription', async () => {
      const trial = await trialWithCard();
      standIn.setCustomerCard(trial.customerId, 'declines');
      const state = await provider.startPlanAfterTrial({ ...trial, idempotencyKey: key('after-trial') });
      standIn.advanceTo(later(23 * HOUR_MS - 1000));
      expect(await provider.getSubscription(state.id)).toMatchObject({ status: 'incomplete' });
      standIn.takeEvents();
      standIn.advanceTo(later(1000));
      expect(typesOf(eventsOf(state.id))).toEqual(['subscription.changed']);
      expect(await provider.getSubscription(state.id)).toMatchObject({ status: 'canceled', unpaidInvoice: null });
      expect(await provider.getInvoice(state.latestInvoiceId ?? '')).toMatchObject({ status: 'void' });
      expect(await provider.listSubscriptions(trial.customerId)).toEqual([]);
      expect(() => standIn.payInvoice(state.latestInvoiceId ?? '')).toThrow(/void/);
    });

    it('leaves the subscription incomplete when there is no card to charge', async () => {
      const { userId, customerId } = await customer();
      const state = await provider.startPlanAfterTrial({
        userId,
        customerId,
        setupIntentId: null,
        idempotencyKey: key('after-trial'),
      });
      expect(state).toMatchObject({ status: 'incomplete', unpaidInvoice: { failure: null, requiresAction: false } });
      expect(billingEvents().some((event) => event.type === 'invoice.paid')).toBe(false);
    });
  });

  describe('getInvoice', () => {
    it('reads a paid invoice: totals, when it was paid, its payment, its user and its lines', async () => {
      const start = inSeconds(standIn.now);
      const { subscriptionId, userId, customerId } = await subscribed('virtuoso', 'annual', true);
      const { latest_invoice } = await stripe.subscriptions.retrieve(subscriptionId);
      const amount = planPriceCents('virtuoso', 'annual', { payNow: true });
      const invoice = await provider.getInvoice(String(latest_invoice));
      expect(invoice).toEqual({
        id: latest_invoice,
        subscriptionId,
        customerId,
        userId,
        status: 'paid',
        totalCents: amount,
        amountPaidCents: amount,
        paidAt: start,
        paymentIntentId: expect.stringMatching(/^pi_/),
        // The first invoice of a subscription, not a renewal of its period.
        renewal: false,
        lines: [
          {
            amountCents: amount,
            periodStart: start,
            periodEnd: addMonthsUtc(start, 12),
            kind: 'plan',
            plan: { plan: 'virtuoso', billingCycle: 'annual', payNow: true },
            priceCents: amount,
            proration: false,
            description: expect.any(String),
          },
        ],
      });
      expect(lastRequest('GET', `/v1/invoices/${latest_invoice}`).params).toEqual({ expand: ['payments'] });
      expect(await provider.getPayment(invoice?.paymentIntentId ?? '')).toMatchObject({ amountCents: amount });
    });

    it('reads prorations as their plan’s, and prices OwnVoice does not sell as other lines: neither grants', async () => {
      const { subscriptionId } = await subscribed('minimum', 'monthly');
      const subscription = await stripe.subscriptions.retrieve(subscriptionId);
      const changed = await stripe.subscriptions.update(subscriptionId, {
        items: [{ id: subscription.items.data[0]?.id, price: priceId('ownvoice_pro_monthly') }],
        proration_behavior: 'always_invoice',
      });
      const invoice = await provider.getInvoice(String(changed.latest_invoice));
      expect(invoice?.lines.map((line) => [line.kind, line.proration, line.plan])).toEqual([
        ['plan', true, { plan: 'minimum', billingCycle: 'monthly', payNow: false }],
        ['plan', true, { plan: 'pro', billingCycle: 'monthly', payNow: false }],
      ]);
      expect(invoiceGrant(invoice as NonNullable<typeof invoice>, { oneTimeAlreadyGranted: true }).tranches).toEqual(
        [],
      );

      await stripe.products.create({ id: 'someone_elses', name: 'Someone else’s' });
      const foreign = await stripe.prices.create({
        product: 'someone_elses',
        currency: 'usd',
        unit_amount: 500,
        recurring: { interval: 'month' },
      });
      const { customerId } = await customer();
      standIn.setCustomerCard(customerId, 'works');
      const other = await stripe.subscriptions.create({ customer: customerId, items: [{ price: foreign.id }] });
      expect((await provider.getInvoice(String(other.latest_invoice)))?.lines).toEqual([
        expect.objectContaining({ kind: 'other', plan: null, proration: false, amountCents: 500 }),
      ]);
    });

    it('reads an amount off the next invoice as a total below its lines, which grants that share', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      const price = planPriceCents('pro', 'monthly', { payNow: false });
      const off = 1000;
      const coupon = await stripe.coupons.create({ amount_off: off, currency: 'usd' });
      await stripe.subscriptions.update(subscriptionId, { discounts: [{ coupon: coupon.id }] });
      const state = await provider.getSubscription(subscriptionId);
      standIn.advanceTo(state?.currentPeriodEnd ?? new Date());
      const renewed = await provider.getSubscription(subscriptionId);
      const invoice = await provider.getInvoice(renewed?.latestInvoiceId ?? '');
      expect(invoice?.lines.map((line) => line.amountCents)).toEqual([price]);
      expect(invoice).toMatchObject({ totalCents: price - off, amountPaidCents: price - off });
      const grant = invoiceGrant(invoice as NonNullable<typeof invoice>, { oneTimeAlreadyGranted: true });
      const chunkEdits = grant.tranches.find((tranche) => tranche.type === 'chunkEdits');
      expect(chunkEdits?.amount).toBe(Math.floor((PLANS.pro.perMonth.chunkEdits * (price - off)) / price));
      // Once: the renewal after it is charged in full.
      standIn.advanceTo(renewed?.currentPeriodEnd ?? new Date());
      const next = await provider.getInvoice((await provider.getSubscription(subscriptionId))?.latestInvoiceId ?? '');
      expect(next?.totalCents).toBe(price);
    });

    it('answers null for an invoice Stripe does not have', async () => {
      expect(await provider.getInvoice('in_unknown')).toBeNull();
    });

    it('reads a subscriber kept on a price the catalog replaced as what they bought, at that price', async () => {
      // A Stripe account of its own: this test changes the catalog.
      const own = await StripeStandIn.start();
      try {
        const client = createStripeClient(own.secretKey, own.apiBase);
        // A year ago Minimum annual cost $10 less; a subscriber signed up then.
        const current = planPriceCents('minimum', 'annual', { payNow: false });
        const old = current - 1000;
        await client.products.create({ id: 'ownvoice_plan_minimum', name: 'OwnVoice Minimum' });
        const oldPrice = await client.prices.create({
          product: 'ownvoice_plan_minimum',
          currency: 'usd',
          unit_amount: old,
          recurring: { interval: 'year' },
          lookup_key: 'ownvoice_minimum_annual',
          tax_behavior: 'inclusive',
          metadata: { ownvoice_sells: 'ownvoice_minimum_annual' },
        });
        const { id: customerId } = await client.customers.create({ email: 'kept@example.com' });
        own.setCustomerCard(customerId, 'works');
        const subscription = await client.subscriptions.create({
          customer: customerId,
          items: [{ price: oldPrice.id }],
          metadata: {
            ownvoice_user_id: 'u-kept',
            ownvoice_plan: 'minimum',
            ownvoice_billing_cycle: 'annual',
            ownvoice_pay_now: 'false',
          },
        });
        // billing:setup then made today's price, which took the lookup key; the subscriber stays.
        await setUpStripeCatalog(client);
        const provider = new StripeProvider({
          secretKey: own.secretKey,
          webhookSecret: WEBHOOK_SECRET,
          apiBase: own.apiBase,
        });
        own.advanceTo(addMonthsUtc(own.now, 12));
        const renewal = (await client.subscriptions.retrieve(subscription.id)).latest_invoice;
        const invoice = await provider.getInvoice(String(renewal));
        // Made for the next period (billing_reason subscription_cycle): the receipt says renewed.
        expect(invoice?.renewal).toBe(true);
        expect(invoice?.lines).toEqual([
          expect.objectContaining({
            kind: 'plan',
            plan: { plan: 'minimum', billingCycle: 'annual', payNow: false },
            amountCents: old,
            priceCents: old,
          }),
        ]);
        // A full year at the price they pay: the year's grant in full, not a share of today's price.
        const grant = invoiceGrant(invoice as NonNullable<typeof invoice>, { oneTimeAlreadyGranted: true });
        expect(grant.anomalies).toEqual([]);
        expect(grant.tranches.find((t) => t.type === 'chunkEdits')?.amount).toBe(
          12 * PLANS.minimum.perMonth.chunkEdits,
        );
      } finally {
        await own.close();
      }
    });
  });

  describe('payments: getPayment, refund and disputes', () => {
    it('reads a payment, refunds part then the rest, and sends the refunds as events', async () => {
      const { paymentIntentId, customerId } = await boughtPack();
      expect(await provider.getPayment(paymentIntentId)).toEqual({
        paymentIntentId,
        customerId,
        amountCents: PACK_CENTS,
        refundedCents: 0,
        dispute: null,
      });
      const idempotencyKey = key('refund');
      await provider.refund({ paymentIntentId, amountCents: 200, idempotencyKey });
      await provider.refund({ paymentIntentId, amountCents: 200, idempotencyKey }); // the same refund
      expect(lastRequest('POST', '/v1/refunds')).toMatchObject({
        idempotencyKey,
        params: { payment_intent: paymentIntentId, amount: '200' },
      });
      expect(await provider.getPayment(paymentIntentId)).toMatchObject({ refundedCents: 200 });
      await provider.refund({ paymentIntentId, amountCents: null, idempotencyKey: key('refund') });
      expect(lastRequest('POST', '/v1/refunds').params).toEqual({ payment_intent: paymentIntentId });
      expect(await provider.getPayment(paymentIntentId)).toMatchObject({
        amountCents: PACK_CENTS,
        refundedCents: PACK_CENTS,
      });
      expect(billingEvents()).toEqual([
        expect.objectContaining({ type: 'payment.changed', paymentIntentId, customerId }),
        expect.objectContaining({ type: 'payment.changed', paymentIntentId, customerId }),
      ]);
    });

    it('refuses to refund more than is left', async () => {
      const { paymentIntentId } = await boughtPack();
      const error = await failure(
        provider.refund({ paymentIntentId, amountCents: PACK_CENTS + 1, idempotencyKey: key('refund') }),
      );
      expect(error).toMatchObject({ code: 'refused', message: expect.stringMatching(/greater than unrefunded/) });
      await provider.refund({ paymentIntentId, amountCents: null, idempotencyKey: key('refund') });
      expect(
        await failure(provider.refund({ paymentIntentId, amountCents: null, idempotencyKey: key('refund') })),
      ).toMatchObject({ code: 'refused', message: expect.stringMatching(/already been refunded/) });
    });

    it('reads a dispute while the bank decides, and once it has', async () => {
      const { paymentIntentId } = await boughtPack();
      standIn.dispute(paymentIntentId);
      // Opened, and the money withdrawn: both name the payment.
      expect(billingEvents()).toEqual([
        expect.objectContaining({ type: 'payment.changed', paymentIntentId }),
        expect.objectContaining({ type: 'payment.changed', paymentIntentId }),
      ]);
      const open = await provider.getPayment(paymentIntentId);
      expect(open?.dispute).toEqual({ id: expect.stringMatching(/^dp_/), status: 'open' });
      expect(lastRequest('GET', '/v1/disputes').params).toMatchObject({ payment_intent: paymentIntentId });
      standIn.closeDispute(paymentIntentId, 'lost');
      expect(billingEvents()).toEqual([expect.objectContaining({ type: 'payment.changed', paymentIntentId })]);
      expect((await provider.getPayment(paymentIntentId))?.dispute).toEqual({ id: open?.dispute?.id, status: 'lost' });

      const won = await boughtPack();
      standIn.dispute(won.paymentIntentId);
      standIn.closeDispute(won.paymentIntentId, 'won');
      expect((await provider.getPayment(won.paymentIntentId))?.dispute).toMatchObject({ status: 'won' });
    });

    it('reads a bank’s inquiry as one, whether it closes or becomes a chargeback', async () => {
      const { paymentIntentId } = await boughtPack();
      standIn.dispute(paymentIntentId, 'inquiry');
      expect(billingEvents()).toEqual([expect.objectContaining({ type: 'payment.changed', paymentIntentId })]);
      const asked = await provider.getPayment(paymentIntentId);
      expect(asked?.dispute).toEqual({ id: expect.stringMatching(/^dp_/), status: 'inquiry' });
      standIn.closeDispute(paymentIntentId, 'warning_closed');
      expect((await provider.getPayment(paymentIntentId))?.dispute).toEqual({
        id: asked?.dispute?.id,
        status: 'inquiry_closed',
      });

      const escalated = await boughtPack();
      standIn.dispute(escalated.paymentIntentId, 'inquiry');
      billingEvents();
      standIn.escalateDispute(escalated.paymentIntentId);
      expect(billingEvents()).toEqual([
        expect.objectContaining({ type: 'payment.changed', paymentIntentId: escalated.paymentIntentId }),
      ]);
      expect((await provider.getPayment(escalated.paymentIntentId))?.dispute).toMatchObject({ status: 'open' });
    });

    it('answers null for a payment Stripe does not have', async () => {
      expect(await provider.getPayment('pi_unknown')).toBeNull();
    });
  });

  describe('cardFingerprint', () => {
    it('is the same for the same card, whoever saves it, and differs for another card', async () => {
      const first = await trialWithCard('works', 'card-of-alice');
      const again = await trialWithCard('works', 'card-of-alice');
      const other = await trialWithCard('works');
      const fingerprint = await provider.cardFingerprint(first.setupIntentId);
      expect(fingerprint).toMatch(/^[A-Za-z0-9]{16}$/);
      expect(await provider.cardFingerprint(again.setupIntentId)).toBe(fingerprint);
      expect(await provider.cardFingerprint(other.setupIntentId)).not.toBe(fingerprint);
      expect(lastRequest('GET', `/v1/setup_intents/${other.setupIntentId}`).params).toEqual({
        expand: ['payment_method'],
      });
    });

    it('is null when no card was saved, or there is no such SetupIntent', async () => {
      const who = await customer();
      const session = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      const { setup_intent } = await stripe.checkout.sessions.retrieve(session.id);
      expect(await provider.cardFingerprint(String(setup_intent))).toBeNull();
      expect(await provider.cardFingerprint('seti_unknown')).toBeNull();
    });
  });

  describe('listPaidSince', () => {
    it('lists the invoices paid and the checkouts completed since a time', async () => {
      const old = await subscribed('pro', 'monthly');
      standIn.advanceTo(later(HOUR_MS));
      const since = standIn.now;
      const plan = await subscribed('minimum', 'monthly');
      const pack = await boughtPack();
      const open = await provider.createTrialSetupCheckout({
        ...(await customer()),
        ...URLS,
        idempotencyKey: key('t'),
      });
      const declined = await trialWithCard();
      standIn.setCustomerCard(declined.customerId, 'declines');
      const unpaid = await provider.startPlanAfterTrial({ ...declined, idempotencyKey: key('after-trial') });

      const { invoiceIds, checkoutIds } = await provider.listPaidSince(since);
      const planInvoice = (await stripe.subscriptions.retrieve(plan.subscriptionId)).latest_invoice;
      const oldInvoice = (await stripe.subscriptions.retrieve(old.subscriptionId)).latest_invoice;
      expect(invoiceIds).toContain(planInvoice);
      expect(invoiceIds).not.toContain(oldInvoice);
      expect(invoiceIds).not.toContain(unpaid.latestInvoiceId);
      expect(checkoutIds).toEqual(expect.arrayContaining([plan.sessionId, pack.sessionId, declined.sessionId]));
      expect(checkoutIds).not.toContain(old.sessionId);
      expect(checkoutIds).not.toContain(open.id);
      expect(lastRequest('GET', '/v1/checkout/sessions').params).toMatchObject({
        status: 'complete',
        created: { gte: String(since.getTime() / 1000) },
      });
    });
  });

  describe('Stripe Tax', () => {
    let taxed: StripeProvider;
    beforeAll(() => {
      taxed = new StripeProvider({
        secretKey: standIn.secretKey,
        webhookSecret: WEBHOOK_SECRET,
        apiBase: standIn.apiBase,
        automaticTax: true,
      });
    });

    it('has Checkout collect the billing address, and tax computed where something is charged', async () => {
      const who = await customer();
      const base = { ...who, ...URLS };
      await taxed.createPlanCheckout({
        ...base,
        plan: 'pro',
        billingCycle: 'monthly',
        payNow: false,
        idempotencyKey: key('p'),
      });
      const tax = { billing_address_collection: 'required', customer_update: { address: 'auto' } };
      expect(lastRequest('POST', '/v1/checkout/sessions').params).toMatchObject({
        ...tax,
        automatic_tax: { enabled: 'true' },
      });
      await taxed.createPackCheckout({ ...base, packs: ['extra_model'], idempotencyKey: key('pack') });
      expect(lastRequest('POST', '/v1/checkout/sessions').params).toMatchObject({
        ...tax,
        automatic_tax: { enabled: 'true' },
      });
      // Stripe refuses automatic tax in setup mode, where nothing is charged; the address is still saved.
      await taxed.createTrialSetupCheckout({ ...base, idempotencyKey: key('trial') });
      const setup = lastRequest('POST', '/v1/checkout/sessions').params;
      expect(setup).toMatchObject(tax);
      expect(setup.automatic_tax).toBeUndefined();
    });

    it('has the subscriptions it starts and changes compute tax', async () => {
      const trial = await trialWithCard();
      const state = await taxed.startPlanAfterTrial({ ...trial, idempotencyKey: key('after-trial') });
      expect(lastRequest('POST', '/v1/subscriptions').params).toMatchObject({ automatic_tax: { enabled: 'true' } });
      await taxed.scheduleDowngrade(state.id, { plan: 'minimum', billingCycle: 'annual' }, key('down'));
      expect(lastRequest('POST', /^\/v1\/subscription_schedules\/[^/]+$/).params.phases).toEqual([
        expect.objectContaining({ automatic_tax: { enabled: 'true' } }),
        expect.objectContaining({ automatic_tax: { enabled: 'true' } }),
      ]);
      await taxed.upgrade(state.id, { plan: 'pro', billingCycle: 'monthly' }, key('up'));
      expect(lastRequest('POST', `/v1/subscriptions/${state.id}`).params).toMatchObject({
        automatic_tax: { enabled: 'true' },
      });
    });
  });

  describe('readWebhook', () => {
    it('reads a delivery signed with the webhook secret', () => {
      const payload = JSON.stringify({
        id: 'evt_1',
        object: 'event',
        created: 1_800_000_000,
        type: 'customer.subscription.updated',
        data: { object: { id: 'sub_1', object: 'subscription', metadata: {} } },
      });
      const event = provider.readWebhook(Buffer.from(payload), signPayload(payload, WEBHOOK_SECRET));
      expect(event).toMatchObject({ id: 'evt_1', type: 'subscription.changed', subscriptionId: 'sub_1' });
    });

    it('refuses a missing or wrong signature', () => {
      const payload = '{"id":"evt_1"}';
      expect(() => provider.readWebhook(Buffer.from(payload), undefined)).toThrow(WebhookSignatureError);
      expect(() => provider.readWebhook(Buffer.from(payload), signPayload(payload, 'whsec_other'))).toThrow(
        WebhookSignatureError,
      );
    });
  });

  describe('errors', () => {
    it('names `npm run billing:setup` while prices are missing, and works once they exist', async () => {
      const bare = await StripeStandIn.start();
      try {
        const fresh = new StripeProvider({ secretKey: bare.secretKey, webhookSecret: 'w', apiBase: bare.apiBase });
        const customerId = await fresh.createCustomer({ userId: 'u', email: 'u@example.com', idempotencyKey: 'k' });
        const checkout = () =>
          fresh.createPackCheckout({
            userId: 'u',
            customerId,
            ...URLS,
            packs: ['extra_model'],
            idempotencyKey: key('pack'),
          });
        const error = await failure(checkout());
        expect(error).toMatchObject({ code: 'misconfigured', status: 503 });
        expect(error.message).toMatch(/ownvoice_pack_extra_model: it does not exist.*npm run billing:setup/);
        await setUpStripeCatalog(createStripeClient(bare.secretKey, bare.apiBase));
        expect((await checkout()).id).toMatch(/^cs_test_/);
      } finally {
        await bare.close();
      }
    });

    it('says to check STRIPE_SECRET_KEY when Stripe refuses the key', async () => {
      const wrong = new StripeProvider({ secretKey: 'sk_test_wrong', webhookSecret: 'w', apiBase: standIn.apiBase });
      const error = await failure(
        wrong.createCustomer({ userId: 'u', email: 'u@example.com', idempotencyKey: key('cus') }),
      );
      expect(error).toMatchObject({
        code: 'misconfigured',
        status: 401,
        message: expect.stringMatching(/STRIPE_SECRET_KEY/),
      });
    });

    it('says to try again when Stripe cannot be reached', async () => {
      const unreachable = new StripeProvider({
        secretKey: 'sk_test_x',
        webhookSecret: 'w',
        apiBase: 'http://127.0.0.1:9',
      });
      const error = await failure(unreachable.getSubscription('sub_1'));
      expect(error).toMatchObject({ code: 'unavailable', message: expect.stringMatching(/Try again in a moment/) });
    });

    it('says what does not exist', async () => {
      expect(await failure(provider.cancelAtPeriodEnd('sub_unknown'))).toMatchObject({
        code: 'not_found',
        status: 404,
      });
    });

    it('wraps a refusal into a PaymentProviderError with Stripe’s reason', async () => {
      const error = await failure(
        provider.createTrialSetupCheckout({
          userId: 'u',
          customerId: 'cus_missing',
          ...URLS,
          idempotencyKey: key('t'),
        }),
      );
      expect(error).toMatchObject({ code: 'refused', status: 400 });
      expect(error.message).toMatch(/^Stripe could not start the checkout: No such customer: 'cus_missing'/);
    });
  });
});

describe('the stand-in, where it models Stripe beyond what the provider calls', () => {
  it('forgets an idempotency key a day after its first use', async () => {
    const idempotencyKey = key('cus');
    const first = await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey });
    standIn.advanceTo(later(DAY_MS - 1000));
    expect((await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey })).id).toBe(first.id);
    standIn.advanceTo(later(1000));
    expect((await stripe.customers.create({ email: 'a@example.com' }, { idempotencyKey })).id).not.toBe(first.id);
  });

  it('refuses to change the cancellation of a subscription a schedule manages', async () => {
    const { subscriptionId } = await subscribed('pro', 'monthly');
    await stripe.subscriptionSchedules.create({ from_subscription: subscriptionId });
    await expect(stripe.subscriptions.update(subscriptionId, { cancel_at_period_end: false })).rejects.toThrow(
      /managed by the subscription schedule/,
    );
  });

  it('refuses to change an incomplete subscription beyond its metadata', async () => {
    const trial = await trialWithCard();
    standIn.setCustomerCard(trial.customerId, 'declines');
    const state = await provider.startPlanAfterTrial({ ...trial, idempotencyKey: key('after-trial') });
    await expect(stripe.subscriptions.update(state.id, { cancel_at_period_end: true })).rejects.toThrow(
      /can only have `metadata` and `default_source` updated/,
    );
    await stripe.subscriptions.update(state.id, { metadata: { note: 'fine' } });
  });

  it('expands at most four levels, and only what can be expanded', async () => {
    const { subscriptionId } = await subscribed('pro', 'monthly');
    const deep = await stripe.subscriptions.retrieve(subscriptionId, { expand: ['latest_invoice.payments'] });
    const invoice = deep.latest_invoice as Stripe.Invoice;
    expect(invoice.payments?.data[0]?.payment.payment_intent).toMatch(/^pi_/);
    await expect(
      stripe.subscriptions.retrieve(subscriptionId, {
        expand: ['latest_invoice.payments.data.payment.payment_intent'],
      }),
    ).rejects.toThrow(/more than 4 levels/);
    await expect(stripe.subscriptions.retrieve(subscriptionId, { expand: ['metadata'] })).rejects.toThrow(
      /cannot be expanded/,
    );
  });

  it('refuses a non-open checkout being expired, as Stripe does', async () => {
    const { sessionId } = await boughtPack();
    await expect(stripe.checkout.sessions.expire(sessionId)).rejects.toThrow(/only an open session can be expired/);
  });
});
