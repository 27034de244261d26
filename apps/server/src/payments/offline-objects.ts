// The offline provider's records as the Stripe objects its events carry, with the fields
// stripe-events.ts reads (and the identifying ones), and as the facts the provider interface
// answers with. Metadata keys are the ones the Stripe provider sets (META).
import { type DisputeStatus, packsOf } from '@ownvoice/shared';
import type Stripe from 'stripe';
import type { OfflineCheckoutRow, OfflineInvoiceRow, OfflinePaymentRow, OfflineSubscriptionRow } from '../db/schema.js';
import type { CheckoutFacts, InvoiceFacts, PaymentFacts, SubscriptionState } from './provider.js';
import { META } from './stripe-events.js';

const seconds = (at: Date) => Math.floor(at.getTime() / 1000);

export function subscriptionMetadata(row: OfflineSubscriptionRow): Record<string, string> {
  return {
    [META.userId]: row.userId,
    [META.plan]: row.plan,
    [META.billingCycle]: row.billingCycle,
    [META.payNow]: String(row.payNow),
  };
}

export function checkoutObject(row: OfflineCheckoutRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'checkout.session',
    mode: { plan: 'subscription', trial: 'setup', pack: 'payment' }[row.kind],
    customer: row.customerId,
    payment_status: row.status !== 'complete' ? 'unpaid' : row.kind === 'trial' ? 'no_payment_required' : 'paid',
    status: row.status,
    amount_total: row.amountCents,
    subscription: row.subscriptionId,
    invoice: row.invoiceId,
    payment_intent: row.paymentIntentId,
    setup_intent: row.setupIntentId,
    metadata: { [META.userId]: row.userId, [META.kind]: row.kind, ...(row.pack ? { [META.pack]: row.pack } : {}) },
  };
}

/** Stripe's subscription statuses: an unpaid first invoice that expired is `incomplete_expired`. */
export function subscriptionObject(row: OfflineSubscriptionRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'subscription',
    customer: row.customerId,
    status: row.status,
    cancel_at_period_end: row.cancelAtPeriodEnd,
    latest_invoice: row.latestInvoiceId,
    metadata: subscriptionMetadata(row),
    items: {
      object: 'list',
      data: [
        { current_period_start: seconds(row.currentPeriodStart), current_period_end: seconds(row.currentPeriodEnd) },
      ],
    },
  };
}

export function invoiceObject(row: OfflineInvoiceRow, subscription: OfflineSubscriptionRow): Record<string, unknown> {
  return {
    id: row.id,
    object: 'invoice',
    customer: row.customerId,
    billing_reason: row.billingReason,
    status: row.status,
    total: row.totalCents,
    amount_paid: row.status === 'paid' ? row.totalCents : 0,
    parent: {
      type: 'subscription_details',
      quote_details: null,
      subscription_details: { subscription: row.subscriptionId, metadata: subscriptionMetadata(subscription) },
    },
  };
}

export function chargeObject(row: OfflinePaymentRow): Record<string, unknown> {
  return {
    id: `ch_${row.id}`,
    object: 'charge',
    amount: row.amountCents,
    amount_refunded: row.refundedCents,
    customer: row.customerId,
    payment_intent: row.id,
    refunded: row.refundedCents >= row.amountCents,
  };
}

/** Stripe's Dispute.status for each state the offline provider keeps (stripe-read.ts reads them back). */
const STRIPE_DISPUTE_STATUS: Record<DisputeStatus, Stripe.Dispute.Status> = {
  inquiry: 'warning_needs_response',
  inquiry_closed: 'warning_closed',
  open: 'needs_response',
  won: 'won',
  lost: 'lost',
};

export function disputeObject(row: OfflinePaymentRow & { disputeStatus: DisputeStatus }): Record<string, unknown> {
  return {
    id: `dp_${row.id}`,
    object: 'dispute',
    amount: row.amountCents,
    charge: `ch_${row.id}`,
    payment_intent: row.id,
    status: STRIPE_DISPUTE_STATUS[row.disputeStatus],
    // "If true, it's still possible to refund the disputed payment" (SDK: Dispute): an inquiry's.
    is_charge_refundable: row.disputeStatus === 'inquiry',
  };
}

export function checkoutFacts(row: OfflineCheckoutRow): CheckoutFacts {
  return {
    id: row.id,
    kind: row.kind,
    userId: row.userId,
    customerId: row.customerId,
    status: row.status,
    paid: row.status === 'complete',
    amountTotalCents: row.kind === 'trial' ? 0 : row.amountCents,
    createdAt: row.createdAt,
    packs: packsOf(row.pack),
    subscriptionId: row.subscriptionId,
    invoiceId: row.invoiceId,
    setupIntentId: row.setupIntentId,
    paymentIntentId: row.paymentIntentId,
  };
}

export function subscriptionState(
  row: OfflineSubscriptionRow,
  latest: OfflineInvoiceRow | undefined,
): SubscriptionState {
  const unpaid = latest?.status === 'open' && (row.status === 'incomplete' || row.status === 'past_due');
  return {
    id: row.id,
    customerId: row.customerId,
    userId: row.userId,
    plan: row.plan,
    billingCycle: row.billingCycle,
    payNow: row.payNow,
    status: row.status,
    cancelAtPeriodEnd: row.cancelAtPeriodEnd,
    currentPeriodStart: row.currentPeriodStart,
    currentPeriodEnd: row.currentPeriodEnd,
    scheduledChange:
      row.scheduledPlan && row.scheduledBillingCycle
        ? { plan: row.scheduledPlan, billingCycle: row.scheduledBillingCycle, effectiveAt: row.currentPeriodEnd }
        : null,
    unpaidInvoice:
      unpaid && latest
        ? {
            id: latest.id,
            amountDueCents: latest.totalCents,
            payUrl: null,
            failure: latest.failure,
            requiresAction: latest.requiresAction,
          }
        : null,
    latestInvoiceId: row.latestInvoiceId,
  };
}

export function invoiceFacts(row: OfflineInvoiceRow): InvoiceFacts {
  return {
    id: row.id,
    subscriptionId: row.subscriptionId,
    customerId: row.customerId,
    userId: row.userId,
    status: row.status,
    totalCents: row.totalCents,
    amountPaidCents: row.status === 'paid' ? row.totalCents : 0,
    paidAt: row.paidAt,
    paymentIntentId: row.paymentIntentId,
    renewal: row.billingReason === 'subscription_cycle',
    lines: row.lines.map((line) => ({
      amountCents: line.amountCents,
      periodStart: new Date(line.periodStart),
      periodEnd: new Date(line.periodEnd),
      kind: line.kind,
      plan: line.plan,
      priceCents: line.amountCents,
      proration: false,
      description: line.description,
    })),
  };
}

export function paymentFacts(row: OfflinePaymentRow): PaymentFacts {
  return {
    paymentIntentId: row.id,
    customerId: row.customerId,
    amountCents: row.amountCents,
    refundedCents: row.refundedCents,
    dispute: row.disputeStatus ? { id: `dp_${row.id}`, status: row.disputeStatus } : null,
  };
}
