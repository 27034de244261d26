// The provider through the real SDK against the local Stripe stand-in: what each call sends, what
// it answers, and the events that follow read the way billing reads them.
import { addMonthsUtc, type BillingCycle, type PaidPlanName, planPriceCents } from '@ownvoice/shared';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { setUpStripeCatalog } from '../billing-setup.js';
import { type RecordedRequest, StripeStandIn } from '../test/stripe-stand-in.js';
import { PaymentProviderError, WebhookSignatureError } from './provider.js';
import { type BillingEvent, META, readStripeEvent, signPayload } from './stripe-events.js';
import { createStripeClient, StripeProvider, subscriptionStatusOf } from './stripe-provider.js';

const WEBHOOK_SECRET = 'whsec_stand_in';
const URLS = {
  successUrl: 'https://ownvoice.test/done?session={CHECKOUT_SESSION_ID}',
  cancelUrl: 'https://ownvoice.test/plans',
};

let standIn: StripeStandIn;
let stripe: Stripe;
let provider: StripeProvider;
let priceIds: Map<string, string>;
let serial = 0;

beforeAll(async () => {
  standIn = await StripeStandIn.start();
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
  standIn.declinePayments = false;
  standIn.takeEvents();
});

const key = (what: string) => `${what}-${++serial}`;
const priceId = (lookupKey: string) => priceIds.get(lookupKey);

function lastRequest(method: string, path: string | RegExp): RecordedRequest {
  const found = standIn.requests.findLast(
    (r) => r.method === method && (typeof path === 'string' ? r.path === path : path.test(r.path)),
  );
  if (!found) throw new Error(`no ${method} ${path}`);
  return found;
}

const billingEvents = (): BillingEvent[] => standIn.takeEvents().map(readStripeEvent);
/** The events about one subscription: moving the clock renews every other one too. */
const eventsOf = (subscriptionId: string) =>
  billingEvents().filter((event) => 'subscriptionId' in event && event.subscriptionId === subscriptionId);

async function customer(userId = key('user')) {
  const customerId = await provider.createCustomer({
    userId,
    email: `${userId}@example.com`,
    idempotencyKey: key('cus'),
  });
  return { userId, customerId };
}

/** A person who bought a plan through checkout; answers with the subscription id. */
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
  return { ...who, subscriptionId: String(completed.subscription) };
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
      await provider.createPackCheckout({ ...who, ...URLS, pack: 'extra_chunk_edits', idempotencyKey: key('pack') });
      expect(lastRequest('POST', '/v1/checkout/sessions').params).toMatchObject({
        mode: 'payment',
        line_items: [{ price: priceId('ownvoice_pack_extra_chunk_edits'), quantity: '1' }],
        metadata: { [META.userId]: who.userId, [META.kind]: 'pack', [META.pack]: 'extra_chunk_edits' },
      });
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
      expect(created).toMatchObject({ type: 'subscription.changed' });
      const subscriptionId = created?.type === 'subscription.changed' ? created.subscriptionId : '';
      expect(paid).toMatchObject({
        type: 'invoice.paid',
        subscriptionId,
        userId: who.userId,
        plan: 'virtuoso',
        billingCycle: 'annual',
        billingReason: 'create',
        amountPaidCents: planPriceCents('virtuoso', 'annual', { payNow: true }),
      });
      expect(completed).toMatchObject({
        type: 'checkout.completed',
        sessionId: session.id,
        kind: 'plan',
        userId: who.userId,
        customerId: who.customerId,
        paid: true,
        subscriptionId,
        pack: null,
      });
    });

    it('a pack: a paid checkout naming the pack', async () => {
      const who = await customer();
      const session = await provider.createPackCheckout({
        ...who,
        ...URLS,
        pack: 'extra_storage_slots',
        idempotencyKey: key('pack'),
      });
      standIn.completeCheckout(session.id);
      expect(billingEvents()).toEqual([
        expect.objectContaining({
          type: 'checkout.completed',
          kind: 'pack',
          userId: who.userId,
          pack: 'extra_storage_slots',
          paid: true,
          subscriptionId: null,
        }),
      ]);
    });

    it('a trial: a completed setup with the SetupIntent that saved the card', async () => {
      const who = await customer();
      const session = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      standIn.completeCheckout(session.id);
      const [completed] = billingEvents();
      expect(completed).toMatchObject({ type: 'checkout.completed', kind: 'trial', userId: who.userId, paid: true });
      expect(completed?.type === 'checkout.completed' && completed.setupIntentId).toMatch(/^seti_/);
    });
  });

  describe('getSubscription', () => {
    it('reports the plan, cycle, pay-now discount and period of a subscription', async () => {
      const start = standIn.now;
      const { subscriptionId, userId, customerId } = await subscribed('pro', 'monthly', true);
      expect(await provider.getSubscription(subscriptionId)).toEqual({
        id: subscriptionId,
        customerId,
        userId,
        plan: 'pro',
        billingCycle: 'monthly',
        payNow: true,
        status: 'active',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: new Date(Math.floor(addMonthsUtc(start, 1).getTime() / 1000) * 1000),
        scheduledChange: null,
      });
    });

    it('answers null for a subscription Stripe does not have', async () => {
      expect(await provider.getSubscription('sub_unknown')).toBeNull();
    });

    it.each([
      ['active', 'active'],
      ['trialing', 'active'],
      ['past_due', 'active'],
      ['canceled', 'canceled'],
      ['unpaid', 'canceled'],
      ['incomplete_expired', 'canceled'],
      ['incomplete', 'incomplete'],
      ['paused', 'incomplete'],
    ] as const)('reads Stripe status %s as %s', (stripeStatus, status) => {
      expect(subscriptionStatusOf(stripeStatus)).toBe(status);
    });
  });

  describe('upgrade', () => {
    it('changes the price now, charging the prorated difference, and updates the metadata', async () => {
      const { subscriptionId, userId } = await subscribed('minimum', 'monthly');
      const idempotencyKey = key('upgrade');
      const state = await provider.upgrade(subscriptionId, { plan: 'pro', billingCycle: 'monthly' }, idempotencyKey);
      expect(state).toMatchObject({ plan: 'pro', billingCycle: 'monthly', payNow: false, status: 'active' });
      const update = lastRequest('POST', `/v1/subscriptions/${subscriptionId}`);
      expect(update).toMatchObject({
        idempotencyKey: `${idempotencyKey}:update`,
        params: {
          items: [{ price: priceId('ownvoice_pro_monthly'), quantity: '1' }],
          proration_behavior: 'always_invoice',
          payment_behavior: 'error_if_incomplete',
          metadata: {
            [META.userId]: userId,
            [META.plan]: 'pro',
            [META.billingCycle]: 'monthly',
            [META.payNow]: 'false',
          },
        },
      });
      const paid = billingEvents().find((event) => event.type === 'invoice.paid');
      expect(paid).toMatchObject({ plan: 'pro', billingCycle: 'monthly', billingReason: 'update', userId });
      // At the start of the period the difference is close to a whole month's.
      expect(paid?.type === 'invoice.paid' && paid.amountPaidCents).toBeGreaterThan(3699 - 899 - 5);
    });

    it('keeps the pay-now discount on the new plan and cycle', async () => {
      const { subscriptionId } = await subscribed('minimum', 'monthly', true);
      const state = await provider.upgrade(subscriptionId, { plan: 'minimum', billingCycle: 'annual' }, key('upgrade'));
      expect(state).toMatchObject({ plan: 'minimum', billingCycle: 'annual', payNow: true });
      expect(lastRequest('POST', `/v1/subscriptions/${subscriptionId}`).params.items).toEqual([
        expect.objectContaining({ price: priceId('ownvoice_minimum_annual_pay_now') }),
      ]);
    });

    it('leaves the plan as it was when the card is declined', async () => {
      const { subscriptionId } = await subscribed('minimum', 'monthly');
      standIn.declinePayments = true;
      await expect(
        provider.upgrade(subscriptionId, { plan: 'virtuoso', billingCycle: 'monthly' }, key('upgrade')),
      ).rejects.toThrow(/card was declined/);
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ plan: 'minimum' });
    });

    it('replaces a scheduled downgrade', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      await provider.scheduleDowngrade(subscriptionId, { plan: 'minimum', billingCycle: 'monthly' }, key('down'));
      const state = await provider.upgrade(subscriptionId, { plan: 'virtuoso', billingCycle: 'monthly' }, key('up'));
      expect(state).toMatchObject({ plan: 'virtuoso', scheduledChange: null });
    });
  });

  describe('scheduleDowngrade', () => {
    it('schedules the lower price and plan for the next period, which the renewal applies', async () => {
      const { subscriptionId, userId } = await subscribed('pro', 'annual');
      const before = await provider.getSubscription(subscriptionId);
      const idempotencyKey = key('down');
      const state = await provider.scheduleDowngrade(
        subscriptionId,
        { plan: 'minimum', billingCycle: 'monthly' },
        idempotencyKey,
      );
      expect(state).toMatchObject({
        plan: 'pro',
        billingCycle: 'annual',
        scheduledChange: { plan: 'minimum', billingCycle: 'monthly', effectiveAt: before?.currentPeriodEnd },
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
            items: [{ price: priceId('ownvoice_pro_annual') }],
            end_date: String((before?.currentPeriodEnd.getTime() ?? 0) / 1000),
          },
          {
            items: [{ price: priceId('ownvoice_minimum_monthly') }],
            duration: { interval: 'month', interval_count: '1' },
            metadata: { [META.userId]: userId, [META.plan]: 'minimum', [META.billingCycle]: 'monthly' },
          },
        ],
      });
      standIn.takeEvents();

      standIn.advanceTo(before?.currentPeriodEnd ?? new Date());
      expect(eventsOf(subscriptionId)).toContainEqual(
        expect.objectContaining({
          type: 'invoice.paid',
          subscriptionId,
          plan: 'minimum',
          billingCycle: 'monthly',
          billingReason: 'cycle',
          amountPaidCents: 899,
        }),
      );
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({
        plan: 'minimum',
        billingCycle: 'monthly',
        scheduledChange: null,
      });
    });

    it('changes the waiting downgrade when asked again, on the same schedule', async () => {
      const { subscriptionId } = await subscribed('virtuoso', 'monthly');
      const schedulesBefore = standIn.requests.filter((r) => r.path === '/v1/subscription_schedules').length;
      await provider.scheduleDowngrade(subscriptionId, { plan: 'minimum', billingCycle: 'monthly' }, key('down'));
      const state = await provider.scheduleDowngrade(
        subscriptionId,
        { plan: 'pro', billingCycle: 'monthly' },
        key('down'),
      );
      expect(state.scheduledChange).toMatchObject({ plan: 'pro', billingCycle: 'monthly' });
      expect(standIn.requests.filter((r) => r.path === '/v1/subscription_schedules').length).toBe(schedulesBefore + 1);
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
      await expect(provider.reactivate(subscriptionId)).rejects.toThrow(/has ended and cannot be reactivated/);
      await expect(provider.reactivate(subscriptionId)).rejects.toBeInstanceOf(PaymentProviderError);
    });

    it('drops a scheduled downgrade when canceling', async () => {
      const { subscriptionId } = await subscribed('pro', 'monthly');
      await provider.scheduleDowngrade(subscriptionId, { plan: 'minimum', billingCycle: 'monthly' }, key('down'));
      expect(await provider.cancelAtPeriodEnd(subscriptionId)).toMatchObject({
        cancelAtPeriodEnd: true,
        scheduledChange: null,
      });
    });

    it('keeps a subscription whose renewal failed active while Stripe retries', async () => {
      const { subscriptionId } = await subscribed('minimum', 'monthly');
      const state = await provider.getSubscription(subscriptionId);
      standIn.declinePayments = true;
      standIn.advanceTo(state?.currentPeriodEnd ?? new Date());
      expect(await provider.getSubscription(subscriptionId)).toMatchObject({ status: 'active' });
      expect(eventsOf(subscriptionId).map((event) => event.type)).toEqual(['subscription.changed']);
    });
  });

  describe('startPlanAfterTrial', () => {
    async function trialWithCard() {
      const who = await customer();
      const session = await provider.createTrialSetupCheckout({ ...who, ...URLS, idempotencyKey: key('trial') });
      const completed = standIn.completeCheckout(session.id);
      standIn.takeEvents();
      return { ...who, setupIntentId: String(completed.setup_intent) };
    }

    it('starts the minimum plan on the saved card, with a first invoice of $10.00', async () => {
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
      });
      expect(lastRequest('POST', '/v1/subscriptions')).toMatchObject({
        idempotencyKey,
        params: {
          customer: customerId,
          default_payment_method: card,
          items: [{ price: priceId('ownvoice_minimum_monthly') }],
          add_invoice_items: [{ price: priceId('ownvoice_trial_first_charge') }],
        },
      });
      expect(billingEvents()).toContainEqual(
        expect.objectContaining({
          type: 'invoice.paid',
          subscriptionId: state.id,
          plan: 'minimum',
          billingReason: 'create',
          amountPaidCents: 1000,
        }),
      );
      const subscription = await stripe.subscriptions.retrieve(state.id);
      const invoice = await stripe.invoices.retrieve(String(subscription.latest_invoice));
      expect(invoice.amount_paid).toBe(1000);
      expect(invoice.lines.data.map((line) => line.amount).sort()).toEqual([101, 899]);

      const again = await provider.startPlanAfterTrial({ userId, customerId, setupIntentId, idempotencyKey });
      expect(again.id).toBe(state.id);
    });

    it('leaves the subscription incomplete when there is no card to charge', async () => {
      const { userId, customerId } = await customer();
      const state = await provider.startPlanAfterTrial({
        userId,
        customerId,
        setupIntentId: null,
        idempotencyKey: key('after-trial'),
      });
      expect(state.status).toBe('incomplete');
      expect(billingEvents().some((event) => event.type === 'invoice.paid')).toBe(false);
    });
  });

  describe('readWebhook', () => {
    it('reads a delivery signed with the webhook secret', () => {
      const payload = JSON.stringify({
        id: 'evt_1',
        object: 'event',
        created: 1_800_000_000,
        type: 'customer.subscription.updated',
        data: { object: { id: 'sub_1', object: 'subscription' } },
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
            pack: 'extra_model',
            idempotencyKey: key('pack'),
          });
        await expect(checkout()).rejects.toThrow(/ownvoice_pack_extra_model: it does not exist.*npm run billing:setup/);
        await setUpStripeCatalog(createStripeClient(bare.secretKey, bare.apiBase));
        expect((await checkout()).id).toMatch(/^cs_test_/);
      } finally {
        await bare.close();
      }
    });

    it('says to check STRIPE_SECRET_KEY when Stripe refuses the key', async () => {
      const wrong = new StripeProvider({ secretKey: 'sk_test_wrong', webhookSecret: 'w', apiBase: standIn.apiBase });
      const error = await wrong
        .createCustomer({ userId: 'u', email: 'u@example.com', idempotencyKey: key('cus') })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(PaymentProviderError);
      expect(error).toMatchObject({ status: 401, message: expect.stringMatching(/STRIPE_SECRET_KEY/) });
    });

    it('wraps a refusal into a PaymentProviderError with Stripe’s reason', async () => {
      await expect(
        provider.createTrialSetupCheckout({
          userId: 'u',
          customerId: 'cus_missing',
          ...URLS,
          idempotencyKey: key('trial'),
        }),
      ).rejects.toThrow(/^Stripe could not start the checkout: No such customer: 'cus_missing'/);
    });
  });
});
