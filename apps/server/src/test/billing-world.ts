// The outside world of billing for the simulation (routes/stripe/billing-simulation.test.ts), the
// same for both providers: a buyer paying a checkout or an invoice with a card that works, is
// declined or needs the bank's confirmation; a cardholder's chargeback or their bank's inquiry;
// the operator's edits in Stripe's dashboard (Stripe only); time passing; and the provider's
// events, held back so the test delivers them late, twice or out of order. With `offline` the
// service runs its own test checkout; with `stripe` the real SDK talks to the Stripe stand-in and
// events reach the webhook signed, as Stripe's do.
import type { BillingCycle, PaidPlanName } from '@ownvoice/shared';
import Stripe from 'stripe';
import { setUpStripeCatalog } from '../billing-setup.js';
import type { PaymentProvider } from '../payments/provider.js';
import { META } from '../payments/stripe-events.js';
import { planPriceLookupKey } from '../payments/stripe-prices.js';
import { createStripeClient } from '../payments/stripe-provider.js';
import { createBillingContext, freshCard, postWebhook, submitCard } from './billing.js';
import { StripeStandIn } from './stripe-stand-in.js';
import { createTestContext, type TestContext } from './test-app.js';

export type Card = 'works' | 'declines' | 'requires_action';

/**
 * An edit in Stripe's dashboard: another plan's price with its prorations invoiced at once
 * (`prorate`), or with a new period now that credits the old one's unused time (`reset`); or an
 * amount off the next invoice (`discount`, a coupon used once).
 */
export type OperatorEdit =
  | { kind: 'prorate' | 'reset'; plan: PaidPlanName; billingCycle: BillingCycle }
  | { kind: 'discount'; amountOffCents: number };

export interface HeldEvent {
  id: string;
  payload: string;
}

export interface BillingWorld {
  name: 'offline' | 'stripe';
  ctx: TestContext;
  provider: PaymentProvider;
  /** The buyer pays on the checkout page: answers whether it went through. */
  payCheckout(checkout: { id: string; url: string }, card: Card): Promise<boolean>;
  /** The buyer pays an unpaid invoice on its page. */
  payInvoice(invoiceId: string, card: Card): Promise<boolean>;
  /** The customer's saved card behaves as `card` from now on. */
  setCard(customerId: string, card: Card): Promise<void>;
  /** The cardholder disputes a payment: a chargeback, or the bank's inquiry first (decision 35). */
  dispute(paymentIntentId: string, kind: 'chargeback' | 'inquiry'): Promise<void>;
  /** The bank turns its inquiry into a chargeback. */
  escalateDispute(paymentIntentId: string): Promise<void>;
  /** The bank decides: a chargeback won or lost, an inquiry closed without one. */
  closeDispute(paymentIntentId: string, outcome: 'won' | 'lost' | 'inquiry_closed'): Promise<void>;
  /**
   * The operator edits the customer's running subscription in the provider's dashboard, as
   * OwnVoice never does: Stripe only (the offline provider has no dashboard). Answers whether it took.
   */
  operatorEdit?(customerId: string, edit: OperatorEdit): Promise<boolean>;
  /** Time passes (both clocks), and the billing job runs. */
  advance(ms: number): Promise<void>;
  /** What the provider sent since the last call, not yet delivered. */
  takeEvents(): Promise<HeldEvent[]>;
  /** Delivers one event to the webhook, signed; answers the status. */
  deliver(event: HeldEvent): Promise<number>;
  /** The money a customer paid at the provider. */
  paymentsOf(customerId: string): Promise<{ paymentIntentId: string; amountCents: number; refundedCents: number }[]>;
  close(): Promise<void>;
}

/** Stripe's test numbers for the offline checkout (payments/test-cards.ts). */
const OFFLINE_CARDS: Record<Exclude<Card, 'works'>, string> = {
  declines: '4000000000000341',
  requires_action: '4000002760003184',
};

export async function offlineWorld(): Promise<BillingWorld> {
  const ctx = await createBillingContext();
  const offline = ctx.provider;
  offline.deliveryMode = 'manual';
  const form = (url: string, card: Card) => submitCard(ctx, url, card === 'works' ? freshCard() : OFFLINE_CARDS[card]);
  return {
    name: 'offline',
    ctx,
    provider: offline,
    payCheckout: async ({ url }, card) => {
      const before = (await offline.findCheckout(url.split('/').at(-1) ?? ''))?.status;
      const res = await form(`${url}/pay`, card);
      return res.statusCode === 303 && before === 'open';
    },
    payInvoice: async (invoiceId, card) =>
      (await form(`/api/offline-checkout/invoice/${invoiceId}/pay`, card)).statusCode === 303,
    setCard: (customerId, card) => offline.setCard(customerId, card === 'works' ? freshCard() : OFFLINE_CARDS[card]),
    dispute: (paymentIntentId, kind) => offline.dispute(paymentIntentId, kind),
    escalateDispute: (paymentIntentId) => offline.escalateDispute(paymentIntentId),
    closeDispute: (paymentIntentId, outcome) => offline.closeDispute(paymentIntentId, outcome),
    advance: async (ms) => {
      ctx.clock.advance(ms);
      await ctx.app.platform.services.billing.tick();
    },
    takeEvents: () => offline.takeEvents(),
    deliver: async (event) => (await postWebhook(ctx, event.payload, ctx.webhookSecret)).statusCode,
    paymentsOf: (customerId) => offline.paymentsOf(customerId),
    close: () => ctx.close(),
  };
}

const WEBHOOK_SECRET = 'whsec_simulation';

/**
 * The service selling through Stripe's SDK against a fresh stand-in with the catalog set up;
 * `overrides` sets more of the configuration (mail through a test SMTP server, say).
 */
export async function startStripeContext(
  webhookSecret: string,
  overrides: Parameters<typeof createTestContext>[0] = {},
): Promise<{ standIn: StripeStandIn; ctx: TestContext }> {
  const standIn = await StripeStandIn.start({ now: new Date('2026-01-15T12:00:00Z') });
  await setUpStripeCatalog(createStripeClient(standIn.secretKey, standIn.apiBase));
  const ctx = await createTestContext({
    billing: {
      provider: 'stripe',
      secretKey: standIn.secretKey,
      webhookSecret,
      publishableKey: undefined,
      apiBase: standIn.apiBase,
      publicUrl: 'https://ownvoice.example',
      prioritySupportUrl: undefined,
    },
    starterAllowance: null,
    ...overrides,
  });
  return { standIn, ctx };
}

export async function stripeWorld(): Promise<BillingWorld> {
  const { standIn, ctx } = await startStripeContext(WEBHOOK_SECRET);
  const payments = ctx.app.platform.services.payments;
  if (!payments) throw new Error('no payments');
  // Both clocks move together: the service's and the stand-in's.
  const sync = () => standIn.advanceTo(ctx.clock.now());
  sync();
  // The operator, in Stripe's dashboard: the same API, another client.
  const operator = createStripeClient(standIn.secretKey, standIn.apiBase);
  let cardSerial = 0;
  const fingerprint = () => `sim-card-${++cardSerial}`;
  const tried = (run: () => void): boolean => {
    try {
      run();
      return true;
    } catch {
      return false;
    }
  };
  return {
    name: 'stripe',
    ctx,
    provider: payments.provider,
    payCheckout: async ({ id }, card) =>
      tried(() => standIn.completeCheckout(id, card, card === 'works' ? { fingerprint: fingerprint() } : {})),
    payInvoice: async (invoiceId, card) =>
      tried(() => standIn.payInvoice(invoiceId, card, { fingerprint: fingerprint() })),
    setCard: async (customerId, card) => standIn.setCustomerCard(customerId, card),
    dispute: async (paymentIntentId, kind) => {
      standIn.dispute(paymentIntentId, kind);
    },
    escalateDispute: async (paymentIntentId) => {
      standIn.escalateDispute(paymentIntentId);
    },
    closeDispute: async (paymentIntentId, outcome) => {
      standIn.closeDispute(paymentIntentId, outcome === 'inquiry_closed' ? 'warning_closed' : outcome);
    },
    operatorEdit: (customerId, edit) => operatorEdit(operator, customerId, edit),
    advance: async (ms) => {
      ctx.clock.advance(ms);
      sync();
      await ctx.app.platform.services.billing.tick();
    },
    takeEvents: async () => standIn.takeEvents().map((event) => ({ id: event.id, payload: JSON.stringify(event) })),
    deliver: async (event) => (await postWebhook(ctx, event.payload, WEBHOOK_SECRET)).statusCode,
    paymentsOf: async (customerId) => standIn.paymentsOf(customerId),
    close: async () => {
      await ctx.close();
      await standIn.close();
    },
  };
}

/** An operator's edit of the customer's active subscription; false when there is none, or Stripe refused it. */
async function operatorEdit(stripe: Stripe, customerId: string, edit: OperatorEdit): Promise<boolean> {
  const [subscription] = (await stripe.subscriptions.list({ customer: customerId, status: 'active', limit: 1 })).data;
  const item = subscription?.items.data[0];
  if (!subscription || !item) return false;
  try {
    if (edit.kind === 'discount') {
      const coupon = await stripe.coupons.create({
        amount_off: edit.amountOffCents,
        currency: 'usd',
        duration: 'once',
      });
      await stripe.subscriptions.update(subscription.id, { discounts: [{ coupon: coupon.id }] });
      return true;
    }
    const payNow = subscription.metadata[META.payNow] === 'true';
    const lookupKey = planPriceLookupKey(edit.plan, edit.billingCycle, payNow);
    const [price] = (await stripe.prices.list({ lookup_keys: [lookupKey] })).data;
    if (!price) return false;
    await stripe.subscriptions.update(subscription.id, {
      items: [{ id: item.id, price: price.id }],
      ...(edit.kind === 'reset'
        ? { billing_cycle_anchor: { type: 'now' }, proration_behavior: 'create_prorations' }
        : { proration_behavior: 'always_invoice' }),
    });
    return true;
  } catch (error) {
    if (error instanceof Stripe.errors.StripeError && error.statusCode !== undefined && error.statusCode < 500) {
      return false; // A schedule manages it, or the card was declined: Stripe said no.
    }
    throw error;
  }
}
