// Billing's tables: the events handled, the money received, the subscriptions each account has
// met, what must still be done at the provider, and the offline provider's own records. None is a
// foreign key to users: payment records outlive an account (docs/decisions/0020), and the offline
// provider stands in for a system outside ours.
import { type BillingCycle, DISPUTE_STATUSES, type PaidPlanName } from '@ownvoice/shared';
import { bigserial, boolean, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

const PLAN_NAMES = ['minimum', 'pro', 'virtuoso'] as const;
const CYCLES = ['monthly', 'annual'] as const;

/** Payment-provider events already handled: the id is stored in the transaction of its effect. */
export const billingEvents = pgTable('billing_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  handledAt: timestamp('handled_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Every payment received: a paid invoice or a paid checkout, by the provider's id (which the
 * grants' ledger lines name as their reference), the payment it was made with (which refunds and
 * disputes name), how much of it was refunded and whether it is disputed. `outcome` says what it
 * paid for: `granted` (its lines granted), `rejected` (a second subscription or a deleted account:
 * refunded in full instead).
 */
export const payments = pgTable(
  'payments',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    kind: text('kind', { enum: ['invoice', 'checkout'] }).notNull(),
    paymentIntentId: text('payment_intent_id'),
    subscriptionId: text('subscription_id'),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    disputeStatus: text('dispute_status', { enum: DISPUTE_STATUSES }),
    outcome: text('outcome', { enum: ['granted', 'rejected'] }).notNull(),
    /** What it bought, for people: "Pro monthly", "Proofreads pack". */
    description: text('description').notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('payments_user_idx').on(t.userId, t.paidAt), index('payments_intent_idx').on(t.paymentIntentId)],
);

/** Each subscription an account has met: `adopted` as its own, or `rejected` (a second one, ended and refunded). */
export const billingSubscriptions = pgTable(
  'billing_subscriptions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    decision: text('decision', { enum: ['adopted', 'rejected'] }).notNull(),
    decidedAt: timestamp('decided_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('billing_subscriptions_user_idx').on(t.userId)],
);

/**
 * What must be done at the provider after a decision (end a subscription, refund a payment, close
 * a checkout, give the customer a changed address): written in the decision's transaction, done
 * after it, and again by the billing job until it succeeds. One row per kind and target. `kind`
 * is checked by the code only (no CHECK constraint), so a new kind needs no migration.
 */
export const billingActions = pgTable(
  'billing_actions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id'),
    kind: text('kind', {
      enum: ['cancel_subscription', 'refund_payment', 'expire_checkout', 'update_customer_email'],
    }).notNull(),
    target: text('target').notNull(),
    /** A partial refund's amount; null for a full one. */
    amountCents: integer('amount_cents'),
    reason: text('reason').notNull(),
    status: text('status', { enum: ['pending', 'done'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    doneAt: timestamp('done_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('billing_actions_once').on(t.kind, t.target), index('billing_actions_status_idx').on(t.status)],
);

/** Deleted accounts' provider customers: an event that still names one ends or refunds what it is about. */
export const deletedCustomers = pgTable('deleted_customers', {
  userId: text('user_id').primaryKey(),
  customerId: text('customer_id'),
  deletedAt: timestamp('deleted_at', { withTimezone: true }).notNull(),
});

/** Who had a trial: hashes of normalized addresses and card fingerprints, kept after deletion. */
export const trialClaims = pgTable('trial_claims', {
  key: text('key').primaryKey(),
  claimedAt: timestamp('claimed_at', { withTimezone: true }).notNull(),
});

/** Each reconciliation with the provider: when, how much it read, and what it found missed. */
export const billingReconciliations = pgTable('billing_reconciliations', {
  id: text('id').primaryKey(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  finishedAt: timestamp('finished_at', { withTimezone: true }),
  checked: integer('checked').notNull().default(0),
  /** Payments the webhook had missed, applied by this run. */
  repaired: integer('repaired').notNull().default(0),
  error: text('error'),
  /** Who asked: null for the daily job, else the admin. */
  requestedBy: text('requested_by'),
});

// --- The offline provider's records (OWNVOICE_BILLING=offline): what Stripe would keep for us ---

/** A test card: how it behaves when charged. Numbers are Stripe's documented test cards. */
export const OFFLINE_CARD_BEHAVIOURS = ['works', 'declines', 'requires_action'] as const;
export type OfflineCardBehaviour = (typeof OFFLINE_CARD_BEHAVIOURS)[number];

export const offlineCustomers = pgTable('offline_customers', {
  id: text('id').primaryKey(),
  userId: text('user_id').notNull(),
  /**
   * The saved card: how it behaves when charged, the bank's words when it declines, and its
   * fingerprint; never its number. Null until a checkout saves one.
   */
  card: text('card', { enum: OFFLINE_CARD_BEHAVIOURS }),
  cardDecline: text('card_decline'),
  cardFingerprint: text('card_fingerprint'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

export const offlineCheckouts = pgTable('offline_checkouts', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  kind: text('kind', { enum: ['plan', 'trial', 'pack'] }).notNull(),
  userId: text('user_id').notNull(),
  customerId: text('customer_id').notNull(),
  plan: text('plan', { enum: PLAN_NAMES }),
  billingCycle: text('billing_cycle', { enum: CYCLES }),
  payNow: boolean('pay_now').notNull().default(false),
  pack: text('pack'),
  amountCents: integer('amount_cents').notNull(),
  successUrl: text('success_url').notNull(),
  cancelUrl: text('cancel_url').notNull(),
  status: text('status', { enum: ['open', 'complete', 'expired'] })
    .notNull()
    .default('open'),
  /** Subscription mode: what paying started. */
  subscriptionId: text('subscription_id'),
  invoiceId: text('invoice_id'),
  /** Payment mode: the payment. Setup mode: the card saved, as its setup id. */
  paymentIntentId: text('payment_intent_id'),
  setupIntentId: text('setup_intent_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
});

export const offlineSubscriptions = pgTable('offline_subscriptions', {
  id: text('id').primaryKey(),
  idempotencyKey: text('idempotency_key').notNull().unique(),
  userId: text('user_id').notNull(),
  customerId: text('customer_id').notNull(),
  plan: text('plan', { enum: PLAN_NAMES }).notNull(),
  billingCycle: text('billing_cycle', { enum: CYCLES }).notNull(),
  payNow: boolean('pay_now').notNull(),
  status: text('status', { enum: ['active', 'past_due', 'incomplete', 'canceled'] }).notNull(),
  cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
  currentPeriodStart: timestamp('current_period_start', { withTimezone: true }).notNull(),
  currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }).notNull(),
  scheduledPlan: text('scheduled_plan', { enum: PLAN_NAMES }),
  scheduledBillingCycle: text('scheduled_billing_cycle', { enum: CYCLES }),
  latestInvoiceId: text('latest_invoice_id'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** One line of an offline invoice, dates as ISO strings. */
export interface OfflineInvoiceLine {
  amountCents: number;
  periodStart: string;
  periodEnd: string;
  kind: 'plan' | 'trial_day';
  plan: { plan: PaidPlanName; billingCycle: BillingCycle; payNow: boolean } | null;
  description: string;
}

export const offlineInvoices = pgTable(
  'offline_invoices',
  {
    id: text('id').primaryKey(),
    subscriptionId: text('subscription_id').notNull(),
    userId: text('user_id').notNull(),
    customerId: text('customer_id').notNull(),
    billingReason: text('billing_reason', {
      enum: ['subscription_create', 'subscription_cycle', 'subscription_update'],
    }).notNull(),
    lines: jsonb('lines').$type<OfflineInvoiceLine[]>().notNull(),
    totalCents: integer('total_cents').notNull(),
    status: text('status', { enum: ['open', 'paid', 'void'] }).notNull(),
    paymentIntentId: text('payment_intent_id'),
    /** Why the last attempt to charge it failed, and whether the bank asks to confirm instead. */
    failure: text('failure'),
    requiresAction: boolean('requires_action').notNull().default(false),
    /** Failed renewals are tried again on a schedule; the count of tries so far. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
  },
  (t) => [index('offline_invoices_subscription_idx').on(t.subscriptionId)],
);

export const offlinePayments = pgTable('offline_payments', {
  id: text('id').primaryKey(),
  customerId: text('customer_id').notNull(),
  amountCents: integer('amount_cents').notNull(),
  refundedCents: integer('refunded_cents').notNull().default(0),
  disputeStatus: text('dispute_status', { enum: DISPUTE_STATUSES }),
  /** The idempotency keys of the refunds made: a refund asked again with the same key is made once. */
  refundKeys: jsonb('refund_keys').$type<string[]>().notNull().default([]),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
});

/** The offline provider's events, kept until delivered, as Stripe keeps and retries its deliveries. */
export const offlineEvents = pgTable(
  'offline_events',
  {
    id: text('id').primaryKey(),
    /** Order of writing, for delivery in order. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    payload: text('payload').notNull(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull(),
    lastError: text('last_error'),
  },
  (t) => [index('offline_events_pending_idx').on(t.deliveredAt, t.nextAttemptAt)],
);

export type PaymentRow = typeof payments.$inferSelect;
export type BillingActionRow = typeof billingActions.$inferSelect;
export type OfflineCustomerRow = typeof offlineCustomers.$inferSelect;
export type OfflineCheckoutRow = typeof offlineCheckouts.$inferSelect;
export type OfflineSubscriptionRow = typeof offlineSubscriptions.$inferSelect;
export type OfflineInvoiceRow = typeof offlineInvoices.$inferSelect;
export type OfflinePaymentRow = typeof offlinePayments.$inferSelect;
