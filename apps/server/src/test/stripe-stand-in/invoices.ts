// Invoices in the stand-in: those a subscription makes when it starts, renews or changes, each
// finalized at once and paid through its default InvoicePayment's PaymentIntent (payments.ts).
import type Stripe from 'stripe';
import { createdFilter, DAY, list, newId, noSuch, oneOf, type Params, page, text } from './form.js';
import type { Outcome, Payments } from './payments.js';
import type {
  InvoicePaymentRecord,
  InvoiceRecord,
  ItemRecord,
  LineRecord,
  PriceRecord,
  SubscriptionRecord,
} from './records.js';

/**
 * Days after a failed renewal's first attempt when it is tried again: a simplified custom retry
 * schedule (https://docs.stripe.com/billing/revenue-recovery/smart-retries). After the last one
 * fails the subscription is canceled, Stripe's "cancel the subscription" setting for what happens
 * once "Stripe has exhausted all payment retry attempts" (SDK: Subscription.status).
 */
export const RETRY_DAYS = [3, 5, 7] as const;

/** A line to put on an invoice. */
export interface LineSpec {
  amount: number;
  description: string;
  price: PriceRecord;
  quantity: number;
  /** The subscription item it bills, or null for a one-off invoice item (`add_invoice_items`). */
  item: string | null;
  proration: boolean;
  period: { start: number; end: number };
}

type Emit = (type: Stripe.Event.Type, object: object) => void;

export class Invoices {
  readonly records = new Map<string, InvoiceRecord>();
  /** Each invoice's default payment (SDK: InvoicePayment.is_default), by invoice id. */
  private readonly payments = new Map<string, InvoicePaymentRecord>();

  constructor(
    private readonly money: Payments,
    private readonly now: () => number,
    private readonly emit: Emit,
    /** The hosted invoice page, where the customer pays. */
    private readonly pageUrl: (id: string) => string,
  ) {}

  get(id: string): InvoiceRecord {
    const invoice = this.records.get(id);
    if (!invoice) throw noSuch('invoice', id);
    return invoice;
  }

  /** The invoice's payments, which Stripe includes on the invoice only when asked (SDK: Invoice.payments). */
  paymentsOf(id: string) {
    const payment = this.payments.get(id);
    return list(payment ? [payment] : [], `/v1/invoice_payments?invoice=${id}`);
  }

  /**
   * A finalized invoice of the subscription (`open`, with its hosted page), carrying what the
   * subscription was for when it was made: billing reads the plan from `parent`.
   */
  create(
    subscription: SubscriptionRecord,
    reason: 'subscription_create' | 'subscription_cycle' | 'subscription_update',
    lines: LineSpec[],
    discount: { id: string; amountOff: number } | null = null,
  ): InvoiceRecord {
    const subtotal = lines.reduce((sum, line) => sum + line.amount, 0);
    // "If you set an amount_off, that amount will be subtracted from any invoice's subtotal … a
    // subtotal of 100 will have a final total of 0 if a coupon with an amount_off of 200 is
    // applied" (SDK: coupons.create); `total` is "Total after discounts and taxes" (SDK: Invoice).
    const discounted = discount ? Math.min(Math.max(0, subtotal), discount.amountOff) : 0;
    const total = subtotal - discounted;
    const due = Math.max(0, total);
    const id = newId('in');
    const now = this.now();
    const invoice: InvoiceRecord = {
      id,
      object: 'invoice',
      amount_due: due,
      amount_paid: 0,
      amount_remaining: due,
      attempt_count: 0,
      attempted: false,
      automatic_tax: {
        enabled: subscription.automatic_tax.enabled,
        disabled_reason: null,
        liability: null,
        provider: null,
        status: null,
      },
      billing_reason: reason,
      created: now,
      currency: subscription.currency,
      customer: subscription.customer,
      hosted_invoice_url: this.pageUrl(id),
      lines: list(
        lines.map((line) => lineRecord(line, id, subscription)),
        `/v1/invoices/${id}/lines`,
      ),
      livemode: false,
      next_payment_attempt: null,
      parent: {
        type: 'subscription_details',
        quote_details: null,
        subscription_details: { subscription: subscription.id, metadata: { ...subscription.metadata } },
      },
      period_end: Math.max(...lines.map((line) => line.period.end)),
      period_start: Math.min(...lines.map((line) => line.period.start)),
      status: 'open',
      status_transitions: { finalized_at: now, marked_uncollectible_at: null, paid_at: null, voided_at: null },
      subtotal,
      total,
      discounts: discount ? [discount.id] : [],
      total_discount_amounts: discount ? [{ amount: discounted, discount: discount.id }] : [],
    };
    if (due === 0) this.markPaid(invoice);
    this.records.set(id, invoice);
    subscription.latest_invoice = id;
    return invoice;
  }

  /**
   * Tries to pay an open invoice with the card, through its default InvoicePayment's
   * PaymentIntent: off-session, or with the customer `present` on a Stripe page.
   */
  collect(invoice: InvoiceRecord, card: string | null, present: boolean): Outcome {
    if (invoice.status === 'paid') return 'succeeded';
    let payment = this.payments.get(invoice.id);
    if (!payment) {
      const intent = this.money.createIntent({
        amount: invoice.amount_due,
        currency: invoice.currency,
        customer: invoice.customer,
        description: `Invoice ${invoice.id}`,
      });
      payment = {
        id: newId('inpay'),
        object: 'invoice_payment',
        amount_paid: null,
        amount_requested: invoice.amount_due,
        created: this.now(),
        currency: invoice.currency,
        invoice: invoice.id,
        is_default: true,
        livemode: false,
        payment: { type: 'payment_intent', payment_intent: intent.id },
        status: 'open',
        status_transitions: { canceled_at: null, paid_at: null },
      };
      this.payments.set(invoice.id, payment);
    }
    const outcome = this.money.attempt(this.money.intent(payment.payment.payment_intent), card, present);
    // "Any payment attempt counts as the first attempt, and subsequently only automatic retries
    // increment the attempt count" (SDK: Invoice.attempt_count): the customer paying on a page
    // does not move the retry schedule.
    if (!present || invoice.attempt_count === 0) invoice.attempt_count += 1;
    invoice.attempted = true;
    if (outcome === 'succeeded') {
      this.markPaid(invoice);
      Object.assign(payment, {
        status: 'paid',
        amount_paid: invoice.amount_due,
        status_transitions: { canceled_at: null, paid_at: this.now() },
      });
    }
    return outcome;
  }

  private markPaid(invoice: InvoiceRecord): void {
    Object.assign(invoice, {
      status: 'paid',
      amount_paid: invoice.amount_due,
      amount_remaining: 0,
      next_payment_attempt: null,
    });
    invoice.status_transitions.paid_at = this.now();
  }

  /**
   * What Stripe sends after an attempt: `invoice.paid`, or `invoice.payment_failed` (also when
   * the bank asks the customer to authenticate, which adds `invoice.payment_action_required`;
   * https://docs.stripe.com/billing/subscriptions/webhooks).
   */
  emitOutcome(invoice: InvoiceRecord, outcome: Outcome): void {
    if (outcome === 'succeeded') {
      this.emit('invoice.paid', invoice);
      return;
    }
    this.emit('invoice.payment_failed', invoice);
    if (outcome === 'requires_action') this.emit('invoice.payment_action_required', invoice);
  }

  /** GET /v1/invoices, with the `customer`, `subscription`, `status` and `created` filters of the SDK's list params. */
  list(params: Params) {
    const customer = text(params, 'customer');
    const subscription = text(params, 'subscription');
    const status = oneOf(params, 'status', ['draft', 'open', 'paid', 'uncollectible', 'void'] as const);
    const created = createdFilter(params);
    const matching = [...this.records.values()].filter(
      (invoice) =>
        (customer === undefined || invoice.customer === customer) &&
        (subscription === undefined || invoice.parent.subscription_details.subscription === subscription) &&
        (status === undefined || invoice.status === status) &&
        created(invoice.created),
    );
    return page(matching, params, '/v1/invoices');
  }

  /** The next retry of a failed invoice, counted from its first attempt, or none after the last. */
  scheduleRetry(invoice: InvoiceRecord): void {
    const days = RETRY_DAYS[invoice.attempt_count - 1];
    invoice.next_payment_attempt = days === undefined ? null : invoice.created + days * DAY;
  }

  /** Voids an open invoice: it can no longer be paid, and its payment is canceled. */
  void(invoice: InvoiceRecord, at: number): void {
    invoice.status = 'void';
    invoice.status_transitions.voided_at = at;
    invoice.next_payment_attempt = null;
    const payment = this.payments.get(invoice.id);
    if (payment) {
      payment.status = 'canceled';
      payment.status_transitions.canceled_at = at;
      this.money.cancel(this.money.intent(payment.payment.payment_intent));
    }
  }

  /** "Stripe stops automatic collection of all finalized invoices" of a canceled subscription (SDK: subscriptions.cancel). */
  stopCollecting(subscriptionId: string): void {
    for (const invoice of this.records.values()) {
      if (invoice.parent.subscription_details.subscription === subscriptionId) invoice.next_payment_attempt = null;
    }
  }
}

/** A period of an item at a price: a subscription item's line, not a proration. */
export function fullPeriod(
  item: ItemRecord,
  price: PriceRecord,
  quantity: number,
  period: { start: number; end: number },
): LineSpec {
  return {
    amount: (price.unit_amount ?? 0) * quantity,
    description: `${quantity} × ${price.nickname ?? price.id}`,
    price,
    quantity,
    item: item.id,
    proration: false,
    period,
  };
}

/**
 * An invoice line as the SDK's InvoiceLineItem has it: the price under `pricing.price_details`,
 * and under `parent` whether it bills a subscription item or a one-off invoice item and whether
 * it is a proration.
 */
function lineRecord(line: LineSpec, invoice: string, subscription: SubscriptionRecord): LineRecord {
  const base = {
    id: newId('il'),
    object: 'line_item' as const,
    amount: line.amount,
    currency: subscription.currency,
    description: line.description,
    invoice,
    quantity: line.quantity,
    period: line.period,
    pricing: {
      type: 'price_details' as const,
      price_details: { price: line.price.id, product: line.price.product },
      unit_amount_decimal: String(line.price.unit_amount ?? 0),
    },
  };
  if (line.item === null) {
    return {
      ...base,
      parent: {
        type: 'invoice_item_details',
        invoice_item_details: {
          invoice_item: newId('ii'),
          proration: line.proration,
          proration_details: null,
          subscription: subscription.id,
        },
        subscription_item_details: null,
      },
    };
  }
  return {
    ...base,
    parent: {
      type: 'subscription_item_details',
      invoice_item_details: null,
      subscription_item_details: {
        invoice_item: line.proration ? newId('ii') : null,
        proration: line.proration,
        proration_details: null,
        subscription: subscription.id,
        subscription_item: line.item,
      },
    },
  };
}
