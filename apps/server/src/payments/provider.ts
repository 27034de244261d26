// The one interface the billing service pays through. Two implementations: Stripe (the official
// SDK, stripe-provider.ts) and the offline provider (offline-provider.ts: a test checkout that no
// card passes through, for the embedded default and the tests). Both report what happened the
// same way: Stripe-shaped events, signed with the webhook secret, posted to
// POST /api/stripe/webhook and read by stripe-events.ts. An event only names what changed; the
// handler then reads the facts from the provider (an invoice's lines, a subscription's state, a
// payment's refunds), so a late or repeated event acts on the present. Nothing grants usage except
// a paid invoice or checkout read this way: there is one path to a paid plan whichever provider
// is configured (docs/decisions/0012-billing.md, 0020-money-that-is-right.md).
import type { BillingCycle, DisputeStatus, PackId, PaidPlanName } from '@ownvoice/shared';

export const CHECKOUT_KINDS = ['plan', 'trial', 'pack'] as const;
export type CheckoutKind = (typeof CHECKOUT_KINDS)[number];

/**
 * What an event is about. `userId` is the user its metadata names, when it carries ours; charges
 * and disputes carry none, and are found by their customer or payment.
 */
export type BillingEvent = { id: string; created: Date } & (
  | { type: 'checkout.completed' | 'checkout.expired'; sessionId: string; userId: string; customerId: string | null }
  | {
      type: 'invoice.paid' | 'invoice.payment_failed';
      invoiceId: string;
      subscriptionId: string | null;
      userId: string | null;
      customerId: string | null;
    }
  | { type: 'subscription.changed'; subscriptionId: string; userId: string | null; customerId: string | null }
  | { type: 'payment.changed'; paymentIntentId: string; customerId: string | null }
  | { type: 'ignored'; stripeType: string; why: string }
);

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

/** A plan as a price charges it: with or without the pay-now discount. */
export interface PlanPrice extends PlanTarget {
  payNow: boolean;
}

/** An invoice the person still has to pay: a declined card, or a bank that asks to confirm. */
export interface UnpaidInvoice {
  id: string;
  amountDueCents: number;
  /** The provider's page where the person pays it (with another card, or confirming with the bank). */
  payUrl: string | null;
  /** Why the last attempt failed, in the bank's words when it gave some; null before any attempt. */
  failure: string | null;
  /** The bank asks the person to confirm the payment (3-D Secure) rather than refusing it. */
  requiresAction: boolean;
}

/** A subscription as the provider has it now. */
export interface SubscriptionState extends PlanPrice {
  id: string;
  customerId: string;
  /** The user it belongs to (kept in the subscription's metadata). */
  userId: string;
  /**
   * `active` while paid up (including while set to cancel at period end); `past_due` while a
   * renewal's payment is being retried (still the person's plan); `incomplete` while its first
   * payment is not made (not the person's plan yet); `canceled` once ended, for whatever reason.
   */
  status: 'active' | 'past_due' | 'incomplete' | 'canceled';
  cancelAtPeriodEnd: boolean;
  currentPeriodStart: Date;
  currentPeriodEnd: Date;
  /** A downgrade waiting for the next period, if any. */
  scheduledChange: (PlanTarget & { effectiveAt: Date }) | null;
  /** The latest invoice while it is unpaid (`incomplete` or `past_due`), else null. */
  unpaidInvoice: UnpaidInvoice | null;
  /** The subscription's latest invoice (its first, its last renewal or change), if any. */
  latestInvoiceId: string | null;
}

/** One line of an invoice, read back into what OwnVoice sells. */
export interface InvoiceLine {
  /** Positive for a charge, negative for a credit. */
  amountCents: number;
  /** The service period the line pays for. */
  periodStart: Date;
  periodEnd: Date;
  /**
   * `plan`: a line of a plan's price (`plan` says which), a period of it unless `proration`;
   * `trial_day`: the pay-later trial's day on the first invoice after it; `other`: anything
   * OwnVoice does not sell (an item added outside OwnVoice). Only a plan's period grants.
   */
  kind: 'plan' | 'trial_day' | 'other';
  plan: PlanPrice | null;
  /**
   * What a full line of its price charges (unit price × quantity), null when unknown: a line that
   * charged less (a discount, a credit) grants in proportion. A subscriber kept on an older price
   * is graded against that price, not today's catalog.
   */
  priceCents: number | null;
  /** The provider made the line to settle a change part-way through a period. */
  proration: boolean;
  description: string;
}

/** An invoice as the provider has it now. */
export interface InvoiceFacts {
  id: string;
  subscriptionId: string | null;
  customerId: string;
  /** The user named by the subscription's metadata when the invoice was made, if any. */
  userId: string | null;
  status: 'draft' | 'open' | 'paid' | 'void' | 'uncollectible';
  totalCents: number;
  amountPaidCents: number;
  /** When it was paid, null while unpaid. */
  paidAt: Date | null;
  /** The payment that paid it, which refunds and disputes name. */
  paymentIntentId: string | null;
  /** Made for the next period of its subscription (a renewal), not for a start or a change. */
  renewal: boolean;
  lines: InvoiceLine[];
}

/** A checkout session as the provider has it now. */
export interface CheckoutFacts {
  id: string;
  kind: CheckoutKind;
  userId: string;
  customerId: string | null;
  status: 'open' | 'complete' | 'expired';
  /** Money arrived (payment mode), or nothing was due (setup mode, or a subscription's first invoice). */
  paid: boolean;
  amountTotalCents: number;
  /** When it was created: a pack's grant counts from its payment, which follows within a day. */
  createdAt: Date;
  /** Payment mode: the packs paid for (one, or what an action needed together); [] otherwise. */
  packs: PackId[];
  /** Subscription mode: the subscription it started, and that subscription's first invoice. */
  subscriptionId: string | null;
  invoiceId: string | null;
  /** Setup mode: the SetupIntent that saved the card. */
  setupIntentId: string | null;
  /** Payment mode: the payment, which refunds and disputes name. */
  paymentIntentId: string | null;
}

/** A payment as the provider has it now: how much of it was refunded, whether it is disputed. */
export interface PaymentFacts {
  paymentIntentId: string;
  customerId: string | null;
  amountCents: number;
  refundedCents: number;
  /**
   * The bank's inquiry (no money withdrawn) or a chargeback: `open` while the bank decides (the
   * money is withdrawn), then `won` or `lost` (DisputeStatus). Of several, the one that says most.
   */
  dispute: { id: string; status: DisputeStatus } | null;
}

export interface PaymentProvider {
  readonly name: 'stripe' | 'offline';
  /** True when no real card is ever charged. */
  readonly testMode: boolean;

  /** The provider's customer for a user, created on first need. */
  createCustomer(input: { userId: string; email: string; idempotencyKey: string }): Promise<string>;
  /**
   * Gives the customer the account's new address (decision 24), which the provider's own mails
   * and its checkout's pre-filled address then use. A PaymentProviderError `not_found` when the
   * provider has no such customer.
   */
  updateCustomerEmail(customerId: string, email: string, idempotencyKey: string): Promise<void>;

  /** Subscription-mode checkout for a plan; the subscription's first paid invoice grants it. */
  createPlanCheckout(input: CheckoutBase & PlanPrice): Promise<CheckoutSession>;
  /** Setup-mode checkout for pay later: saves a card, charges nothing, and starts the trial. */
  createTrialSetupCheckout(input: CheckoutBase): Promise<CheckoutSession>;
  /** Payment-mode checkout for one-time packs: one, or several paid together (pack-lists.ts). */
  createPackCheckout(input: CheckoutBase & { packs: readonly PackId[] }): Promise<CheckoutSession>;
  getCheckout(id: string): Promise<CheckoutFacts | null>;
  /** The customer's checkouts that can still be paid. */
  listOpenCheckouts(customerId: string): Promise<CheckoutFacts[]>;
  /** Closes an open checkout so it can no longer be paid; one already closed is left as it is. */
  expireCheckout(id: string): Promise<void>;

  /**
   * Starts the minimum plan for a trial that ended, charging the card saved at setup; the first
   * invoice is the pay-later first charge. A declined card, or a bank that asks to confirm,
   * answers an `incomplete` subscription whose unpaid invoice says how to pay it.
   */
  startPlanAfterTrial(input: {
    userId: string;
    customerId: string;
    /** The setup-mode checkout's SetupIntent, whose card pays; null uses the customer's default. */
    setupIntentId: string | null;
    idempotencyKey: string;
  }): Promise<SubscriptionState>;

  /** The subscription, or null when the provider has none by that id or OwnVoice did not make it. */
  getSubscription(id: string): Promise<SubscriptionState | null>;
  /** The customer's subscriptions that have not ended (OwnVoice's own only). */
  listSubscriptions(customerId: string): Promise<SubscriptionState[]>;
  /**
   * Moves the subscription to a higher plan or cycle: a new period of the new plan starts now,
   * charged in full at once with no credit for the old period (whose grant stays: decision 20).
   * A scheduled downgrade is dropped, but only when the charge succeeds. A declined card is a
   * PaymentProviderError with code `card_declined` (or `requires_action`), and nothing changes.
   */
  upgrade(
    id: string,
    target: PlanTarget,
    idempotencyKey: string,
  ): Promise<{ state: SubscriptionState; invoiceId: string }>;
  /** Schedules a lower plan or cycle for the start of the next period. */
  scheduleDowngrade(id: string, target: PlanTarget, idempotencyKey: string): Promise<SubscriptionState>;
  cancelAtPeriodEnd(id: string): Promise<SubscriptionState>;
  /** Undoes a cancellation that has not taken effect; a subscription already ended cannot be. */
  reactivate(id: string): Promise<SubscriptionState>;
  /** Ends the subscription now, with no credit or refund; one already ended is left as it is. */
  cancelNow(id: string, idempotencyKey: string): Promise<void>;

  getInvoice(id: string): Promise<InvoiceFacts | null>;
  getPayment(paymentIntentId: string): Promise<PaymentFacts | null>;
  /** Refunds a payment, in full or `amountCents` of it; the refund's event takes back what it granted. */
  refund(input: { paymentIntentId: string; amountCents: number | null; idempotencyKey: string }): Promise<void>;
  /** The card a setup checkout saved, as a fingerprint that is the same for the same card anywhere. */
  cardFingerprint(setupIntentId: string): Promise<string | null>;

  /** Ids of invoices paid and checkouts completed since `since`, for reconciliation. */
  listPaidSince(since: Date): Promise<{ invoiceIds: string[]; checkoutIds: string[] }>;

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

/**
 * What went wrong at the provider, so the person is told the right thing: a card the bank
 * refused or wants confirmed, a provider that could not be reached, something that does not
 * exist or has ended, or the operator's setup.
 */
export type ProviderErrorCode =
  | 'card_declined'
  | 'requires_action'
  | 'unavailable'
  | 'not_found'
  | 'ended'
  | 'misconfigured'
  | 'refused';

/** The provider refused or could not be reached; `message` says what to do. */
export class PaymentProviderError extends Error {
  constructor(
    message: string,
    readonly code: ProviderErrorCode,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'PaymentProviderError';
  }
}
