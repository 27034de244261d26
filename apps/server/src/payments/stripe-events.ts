// Reads a verified Stripe event into what it is about. Both providers send events in Stripe's
// shape (the pinned SDK's API version), so this is the only place that knows that shape. An event
// only names what changed and whose it is: the handler reads the facts themselves from the
// provider (payments/provider.ts), so a late or repeated delivery acts on the present. Our own
// objects carry who they are for in their metadata (`ownvoice_*` keys, set when the checkout or
// subscription is created); one about something we did not create is ignored.
import { BILLING_CYCLES, type BillingCycle, PAID_PLAN_NAMES, type PaidPlanName } from '@ownvoice/shared';
import Stripe from 'stripe';
import { type BillingEvent, CHECKOUT_KINDS, WebhookSignatureError } from './provider.js';

/** Metadata keys on checkout sessions and subscriptions. */
export const META = {
  userId: 'ownvoice_user_id',
  kind: 'ownvoice_kind',
  plan: 'ownvoice_plan',
  billingCycle: 'ownvoice_billing_cycle',
  payNow: 'ownvoice_pay_now',
  pack: 'ownvoice_pack',
} as const;

/** The Stripe event types billing acts on: the webhook endpoint must send these (README, Billing). */
export const HANDLED_STRIPE_EVENTS = [
  'checkout.session.completed',
  'checkout.session.async_payment_succeeded',
  'checkout.session.expired',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.created',
  'customer.subscription.updated',
  'customer.subscription.deleted',
  'charge.refunded',
  'charge.dispute.created',
  'charge.dispute.funds_withdrawn',
  'charge.dispute.closed',
] as const;

type Metadata = Stripe.Metadata | null | undefined;

const oneOf = <T extends string>(list: readonly T[], value: string | undefined): T | null =>
  value !== undefined && (list as readonly string[]).includes(value) ? (value as T) : null;

export const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const userOf = (metadata: Metadata): string | null => metadata?.[META.userId] || null;

export function readStripeEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, created: new Date(event.created * 1000) };
  const ignored = (why: string): BillingEvent => ({ ...base, type: 'ignored', stripeType: event.type, why });
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded':
    case 'checkout.session.expired': {
      const session = event.data.object;
      const kind = oneOf(CHECKOUT_KINDS, session.metadata?.[META.kind]);
      const userId = userOf(session.metadata);
      if (!kind || !userId) return ignored('not an OwnVoice checkout');
      return {
        ...base,
        type: event.type === 'checkout.session.expired' ? 'checkout.expired' : 'checkout.completed',
        sessionId: session.id,
        userId,
        customerId: idOf(session.customer),
      };
    }
    case 'invoice.paid':
    case 'invoice.payment_failed': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details;
      if (!invoice.id) return ignored('an invoice without an id');
      return {
        ...base,
        type: event.type,
        invoiceId: invoice.id,
        subscriptionId: idOf(details?.subscription),
        userId: userOf(details?.metadata),
        customerId: idOf(invoice.customer),
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted': {
      const subscription = event.data.object;
      return {
        ...base,
        type: 'subscription.changed',
        subscriptionId: subscription.id,
        userId: userOf(subscription.metadata),
        customerId: idOf(subscription.customer),
      };
    }
    case 'charge.refunded': {
      const charge = event.data.object;
      const paymentIntentId = idOf(charge.payment_intent);
      if (!paymentIntentId) return ignored('a charge without a payment intent');
      return { ...base, type: 'payment.changed', paymentIntentId, customerId: idOf(charge.customer) };
    }
    // An inquiry becomes a chargeback when the money is withdrawn, which may be its only event.
    case 'charge.dispute.created':
    case 'charge.dispute.funds_withdrawn':
    case 'charge.dispute.closed': {
      const dispute = event.data.object;
      const paymentIntentId = idOf(dispute.payment_intent);
      if (!paymentIntentId) return ignored('a dispute without a payment intent');
      return { ...base, type: 'payment.changed', paymentIntentId, customerId: null };
    }
    default:
      return ignored('not an event billing acts on');
  }
}

/** The plan and cycle kept in a subscription's (or a schedule phase's) metadata, or null when not ours. */
export function readPlan(metadata: Metadata): { plan: PaidPlanName; billingCycle: BillingCycle } | null {
  const plan = oneOf(PAID_PLAN_NAMES, metadata?.[META.plan]);
  const billingCycle = oneOf(BILLING_CYCLES, metadata?.[META.billingCycle]);
  return plan && billingCycle ? { plan, billingCycle } : null;
}

// Webhook signatures are Stripe's scheme (an HMAC of the timestamp and raw body) for both
// providers; this client is only used for that, so it never talks to the network.
const signer = new Stripe('sk_signing_only');

/** Verifies a delivery and reads it; a missing or wrong signature is a WebhookSignatureError. */
export function readSignedEvent(rawBody: Buffer, signature: string | undefined, secret: string): BillingEvent {
  if (!signature) throw new WebhookSignatureError('The Stripe-Signature header is missing.');
  let event: Stripe.Event;
  try {
    event = signer.webhooks.constructEvent(rawBody, signature, secret);
  } catch (error) {
    throw new WebhookSignatureError(error instanceof Error ? error.message : 'The signature does not match.');
  }
  return readStripeEvent(event);
}

/**
 * Signs a payload the way Stripe does, for the offline provider and the tests. The signature's
 * timestamp is the real time (not the service clock): verification compares it with the real
 * time to refuse replays.
 */
export function signPayload(payload: string, secret: string): string {
  return signer.webhooks.generateTestHeaderString({ payload, secret });
}
