// Stripe's objects read into the facts billing acts on (payments/provider.ts), on the pinned SDK's
// API version: a subscription's status and scheduled change, a checkout session, an invoice's
// lines as what OwnVoice sells, where a payment's disputes stand. How each field is read is taken
// from the SDK's type docs (node_modules/stripe/esm/resources).
import { BILLING_CYCLES, type DisputeStatus, PAID_PLAN_NAMES, packsOf } from '@ownvoice/shared';
import type Stripe from 'stripe';
import {
  CHECKOUT_KINDS,
  type CheckoutFacts,
  type InvoiceFacts,
  type InvoiceLine,
  type PaymentFacts,
  PaymentProviderError,
  type PlanPrice,
  type SubscriptionState,
} from './provider.js';
import { idOf, META, readPlan } from './stripe-events.js';
import {
  PRICE_SELLS_KEY,
  planPriceLookupKey,
  planProductId,
  TRIAL_DAY_PRODUCT_ID,
  TRIAL_FIRST_CHARGE_LOOKUP_KEY,
} from './stripe-prices.js';

/** What one of OwnVoice's prices sells. */
export type Sold = PlanPrice | 'trial_day';

/** How billing sees Stripe's subscription status (SDK: Subscription.status). */
export function subscriptionStatusOf(status: Stripe.Subscription.Status): SubscriptionState['status'] {
  switch (status) {
    case 'active':
    case 'trialing':
      return 'active';
    case 'past_due': // Still the person's plan while Stripe retries the card.
      return 'past_due';
    case 'canceled':
    case 'unpaid':
    case 'incomplete_expired':
      return 'canceled';
    default: // incomplete, paused: not paid for, not over.
      return 'incomplete';
  }
}

/** The plan a pending schedule switches to at the end of the current period. */
export function scheduledChange(
  schedule: Stripe.Subscription['schedule'],
  periodEnd: number,
): SubscriptionState['scheduledChange'] {
  if (!schedule || typeof schedule === 'string' || !isPending(schedule)) return null;
  const next = schedule.phases.find((phase) => phase.start_date >= periodEnd);
  const target = next && readPlan(next.metadata);
  return next && target ? { ...target, effectiveAt: fromUnix(next.start_date) } : null;
}

export const isPending = (schedule: Stripe.SubscriptionSchedule) =>
  schedule.status === 'active' || schedule.status === 'not_started';

/** The schedule managing the subscription, when it still manages it (read with `expand: ['schedule']`). */
export function pendingSchedule(subscription: Stripe.Subscription): Stripe.SubscriptionSchedule | null {
  const schedule = subscription.schedule;
  return schedule && typeof schedule !== 'string' && isPending(schedule) ? schedule : null;
}

export function firstItem(subscription: Stripe.Subscription): Stripe.SubscriptionItem {
  const item = subscription.items.data[0];
  if (!item) {
    throw new PaymentProviderError(`Stripe subscription ${subscription.id} has no price to change.`, 'refused');
  }
  return item;
}

export function checkoutFacts(session: Stripe.Checkout.Session): CheckoutFacts | null {
  const kind = CHECKOUT_KINDS.find((each) => each === session.metadata?.[META.kind]);
  const userId = session.metadata?.[META.userId];
  if (!kind || !userId) return null;
  return {
    id: session.id,
    kind,
    userId,
    customerId: idOf(session.customer),
    status: session.status === 'complete' ? 'complete' : session.status === 'expired' ? 'expired' : 'open',
    paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
    amountTotalCents: session.amount_total ?? 0,
    createdAt: fromUnix(session.created),
    packs: packsOf(session.metadata?.[META.pack]),
    subscriptionId: idOf(session.subscription),
    invoiceId: idOf(session.invoice),
    setupIntentId: idOf(session.setup_intent),
    paymentIntentId: idOf(session.payment_intent),
  };
}

/** What each lookup key OwnVoice sells stands for. */
const SOLD_BY_LOOKUP_KEY: ReadonlyMap<string, Sold> = new Map<string, Sold>([
  ...PAID_PLAN_NAMES.flatMap((plan) =>
    BILLING_CYCLES.flatMap((billingCycle) =>
      [false, true].map((payNow): [string, Sold] => [
        planPriceLookupKey(plan, billingCycle, payNow),
        { plan, billingCycle, payNow },
      ]),
    ),
  ),
  [TRIAL_FIRST_CHARGE_LOOKUP_KEY, 'trial_day'],
]);

/** What each of OwnVoice's current price ids sells, read back from the lookup keys it was found by. */
export function soldBy(ids: Map<string, string>): Map<string, Sold> {
  const sold = new Map<string, Sold>();
  for (const [lookupKey, what] of SOLD_BY_LOOKUP_KEY) {
    const id = ids.get(lookupKey);
    if (id) sold.set(id, what);
  }
  return sold;
}

/**
 * What a price sells when it is no longer the current one (a price `billing:setup` replaced keeps
 * charging the subscriptions on it): the lookup key it was made for, kept in its metadata, or for
 * a price made before that, its product, interval and name. Null for a price OwnVoice did not make.
 */
export function soldByPrice(price: Stripe.Price): Sold | null {
  const named = price.metadata?.[PRICE_SELLS_KEY] ?? price.lookup_key ?? '';
  const byKey = SOLD_BY_LOOKUP_KEY.get(named);
  if (byKey) return byKey;
  const product = typeof price.product === 'string' ? price.product : price.product.id;
  if (product === TRIAL_DAY_PRODUCT_ID) return 'trial_day';
  const plan = PAID_PLAN_NAMES.find((name) => product === planProductId(name));
  const interval = price.recurring?.interval;
  if (!plan || (interval !== 'month' && interval !== 'year')) return null;
  return {
    plan,
    billingCycle: interval === 'year' ? 'annual' : 'monthly',
    payNow: (price.nickname ?? '').includes('pay-now'),
  };
}

/**
 * An invoice line read into what OwnVoice sells: its price (`pricing.price_details.price`), and
 * whether Stripe made it to settle a change part-way through a period (`parent.*.proration`). A
 * proration of a plan's price is still that plan's line: what it grants (nothing) is the grant
 * rule's to say (invoice-grant.ts).
 */
export function lineFacts(line: Stripe.InvoiceLineItem, what: Sold | null): InvoiceLine {
  const proration =
    line.parent?.subscription_item_details?.proration ?? line.parent?.invoice_item_details?.proration ?? false;
  const kind = !what ? 'other' : what === 'trial_day' ? 'trial_day' : 'plan';
  return {
    amountCents: line.amount,
    periodStart: fromUnix(line.period.start),
    periodEnd: fromUnix(line.period.end),
    kind,
    plan: kind === 'plan' && what && what !== 'trial_day' ? what : null,
    priceCents: unitPriceCents(line),
    proration,
    description: line.description ?? '',
  };
}

/** The line's price times its quantity: what a full line of it charges, before any discount. */
function unitPriceCents(line: Stripe.InvoiceLineItem): number | null {
  const unit = line.pricing?.unit_amount_decimal;
  return unit == null ? null : Math.round(Number(unit) * (line.quantity ?? 1));
}

const INVOICE_STATUSES = ['draft', 'open', 'paid', 'void', 'uncollectible'] as const;

export const invoiceStatusOf = (status: Stripe.Invoice.Status | null): InvoiceFacts['status'] =>
  INVOICE_STATUSES.find((each) => each === status) ?? 'draft';

/**
 * Where a dispute stands (SDK: Dispute.status). The `warning_` statuses are the bank's inquiry
 * before any chargeback: "unlike a formal dispute, no funds have been withdrawn"
 * (https://stripe.com/docs/disputes, Inquiries and retrievals), and `warning_closed` ended it
 * without one, as `prevented` is a dispute stopped "before [it's] raised to [a] formal chargeback"
 * (https://docs.stripe.com/changelog/basil/2025-08-27/add-preventions-to-dispute). The others are
 * a chargeback, whose money Stripe withdraws when it opens (charge.dispute.funds_withdrawn) and
 * keeps through an appeal; a status this code does not know is read as one too: never fail open.
 */
export function disputeStatusOf(status: Stripe.Dispute.Status): DisputeStatus {
  switch (status) {
    case 'warning_needs_response':
    case 'warning_under_review':
      return 'inquiry';
    case 'warning_closed':
    case 'prevented':
      return 'inquiry_closed';
    case 'won':
      return 'won';
    case 'lost':
      return 'lost';
    default:
      return 'open';
  }
}

/** Which of a payment's disputes says most about its money: a chargeback over an inquiry it followed. */
const WEIGHT: Record<DisputeStatus, number> = { inquiry_closed: 0, inquiry: 1, won: 2, open: 3, lost: 4 };

/** A payment's disputes read as one (an inquiry may close and a chargeback follow as another). */
export function paymentDispute(disputes: readonly Pick<Stripe.Dispute, 'id' | 'status'>[]): PaymentFacts['dispute'] {
  let found: PaymentFacts['dispute'] = null;
  for (const dispute of disputes) {
    const status = disputeStatusOf(dispute.status);
    if (!found || WEIGHT[status] > WEIGHT[found.status]) found = { id: dispute.id, status };
  }
  return found;
}

export const fromUnix = (seconds: number) => new Date(seconds * 1000);
