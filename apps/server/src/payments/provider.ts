// The one interface the billing service pays through. Two implementations: Stripe (the official
// SDK, stripe-provider.ts) and the offline provider (offline-provider.ts: a test checkout that no
// card passes through, for the embedded default and the tests). Both report what happened the
// same way: Stripe-shaped events, signed with the webhook secret, posted to
// POST /api/stripe/webhook and read by stripe-events.ts. Nothing grants usage except those
// events, so there is one path to a paid plan whichever provider is configured.
import type { BillingCycle, PackId, PaidPlanName } from '@ownvoice/shared';
import type { BillingEvent } from './stripe-events.js';

export interface CheckoutSession {
  id: string;
  /** Where the browser goes to pay. */
  url: string;
}

/** What every checkout needs: who pays, where the browser comes back to, and an idempotency key. */
export interface CheckoutBase {
  userId: string;
  customerId: string;
  /** The success URL; `{CHECKOUT_SESSION_ID}` in it is replaced by the session id. */
  successUrl: string;
  cancelUrl: string;
  /** The same key asks for the same checkout again instead of a second one. */
  idempotencyKey: string;
}

export interface PlanTarget {
  plan: PaidPlanName;
  billingCycle: BillingCycle;
}

/** A subscription as the provider has it now. */
export interface SubscriptionState {
  id: string;
  customerId: string;
  /** The user it belongs to (kept in the subscription's metadata). */
  userId: string;
  plan: PaidPlanName;
  billingCycle: BillingCycle;
  /** Priced with the pay-now discount (15% for life). */
  payNow: boolean;
  /** `active` while paid up (including while set to cancel at period end); `canceled` once ended. */
  status: 'active' | 'canceled' | 'incomplete';
  cancelAtPeriodEnd: boolean;
  currentPeriodEnd: Date;
  /** A downgrade waiting for the next period, if any. */
  scheduledChange: (PlanTarget & { effectiveAt: Date }) | null;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'offline';
  /** True when no real card is ever charged. */
  readonly testMode: boolean;

  /** The provider's customer for a user, created on first need. */
  createCustomer(input: { userId: string; email: string; idempotencyKey: string }): Promise<string>;

  /** Subscription-mode checkout for a plan; the subscription's first paid invoice grants it. */
  createPlanCheckout(input: CheckoutBase & PlanTarget & { payNow: boolean }): Promise<CheckoutSession>;
  /** Setup-mode checkout for pay later: saves a card, charges nothing, and starts the trial. */
  createTrialSetupCheckout(input: CheckoutBase): Promise<CheckoutSession>;
  /** Payment-mode checkout for a one-time pack. */
  createPackCheckout(input: CheckoutBase & { pack: PackId }): Promise<CheckoutSession>;

  /**
   * Starts the minimum plan for a trial that ended, charging the card saved at setup; the first
   * invoice is the pay-later first charge. Answers with the new subscription.
   */
  startPlanAfterTrial(input: {
    userId: string;
    customerId: string;
    /** The setup-mode checkout's SetupIntent, whose card pays; null uses the customer's default. */
    setupIntentId: string | null;
    idempotencyKey: string;
  }): Promise<SubscriptionState>;

  getSubscription(id: string): Promise<SubscriptionState | null>;
  /** Moves the subscription to a higher plan or cycle now, charging the prorated difference at once. */
  upgrade(id: string, target: PlanTarget, idempotencyKey: string): Promise<SubscriptionState>;
  /** Schedules a lower plan or cycle for the start of the next period. */
  scheduleDowngrade(id: string, target: PlanTarget, idempotencyKey: string): Promise<SubscriptionState>;
  cancelAtPeriodEnd(id: string): Promise<SubscriptionState>;
  /** Undoes a cancellation that has not taken effect; a subscription already ended cannot be. */
  reactivate(id: string): Promise<SubscriptionState>;

  /**
   * Checks a webhook delivery's signature over the raw body and reads it; throws
   * WebhookSignatureError when the signature is missing or wrong.
   */
  readWebhook(rawBody: Buffer, signature: string | undefined): BillingEvent;
}

export class WebhookSignatureError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'WebhookSignatureError';
  }
}

/** The provider refused or could not be reached; the person is told to try again. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
