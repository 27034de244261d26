// Reads a verified Stripe event into the few facts billing acts on. Both providers send events
// in Stripe's shape (API version of the pinned SDK), so this is the only place that knows it.
// Our own objects carry what they are for in their metadata (`ownvoice_*` keys, set when the
// checkout or subscription is created); an event about something we did not create is ignored.
import {
  BILLING_CYCLES,
  type BillingCycle,
  PACK_IDS,
  PAID_PLAN_NAMES,
  type PackId,
  type PaidPlanName,
} from '@ownvoice/shared';
import Stripe from 'stripe';
import { WebhookSignatureError } from './provider.js';

/** Metadata keys on checkout sessions and subscriptions. */
export const META = {
  userId: 'ownvoice_user_id',
  kind: 'ownvoice_kind',
  plan: 'ownvoice_plan',
  billingCycle: 'ownvoice_billing_cycle',
  payNow: 'ownvoice_pay_now',
  pack: 'ownvoice_pack',
} as const;

export type CheckoutKind = 'plan' | 'trial' | 'pack';

export type BillingEvent = { id: string; created: Date } & (
  | {
      type: 'checkout.completed';
      sessionId: string;
      kind: CheckoutKind;
      userId: string;
      customerId: string | null;
      /** Money arrived (payment mode), or nothing was due (setup mode, or a subscription's first invoice). */
      paid: boolean;
      pack: PackId | null;
      subscriptionId: string | null;
      setupIntentId: string | null;
    }
  | {
      type: 'invoice.paid';
      invoiceId: string;
      subscriptionId: string;
      userId: string;
      plan: PaidPlanName;
      billingCycle: BillingCycle;
      /** Why the invoice exists: the first payment, a renewal, or a change of plan. */
      billingReason: 'create' | 'cycle' | 'update' | 'other';
      amountPaidCents: number;
    }
  | { type: 'subscription.changed'; subscriptionId: string }
  | { type: 'ignored'; stripeType: string; why: string }
);

type Metadata = Stripe.Metadata | null | undefined;

const oneOf = <T extends string>(list: readonly T[], value: string | undefined): T | null =>
  value !== undefined && (list as readonly string[]).includes(value) ? (value as T) : null;

const idOf = (value: string | { id: string } | null | undefined): string | null =>
  value == null ? null : typeof value === 'string' ? value : value.id;

const KINDS: readonly CheckoutKind[] = ['plan', 'trial', 'pack'];

export function readStripeEvent(event: Stripe.Event): BillingEvent {
  const base = { id: event.id, created: new Date(event.created * 1000) };
  const ignored = (why: string): BillingEvent => ({ ...base, type: 'ignored', stripeType: event.type, why });
  switch (event.type) {
    case 'checkout.session.completed':
    case 'checkout.session.async_payment_succeeded': {
      const session = event.data.object;
      const kind = oneOf(KINDS, session.metadata?.[META.kind]);
      const userId = session.metadata?.[META.userId];
      if (!kind || !userId) return ignored('not an OwnVoice checkout');
      const pack = oneOf(PACK_IDS, session.metadata?.[META.pack]);
      if (kind === 'pack' && !pack) return ignored('pack checkout without a known pack');
      return {
        ...base,
        type: 'checkout.completed',
        sessionId: session.id,
        kind,
        userId,
        customerId: idOf(session.customer),
        paid: session.payment_status === 'paid' || session.payment_status === 'no_payment_required',
        pack,
        subscriptionId: idOf(session.subscription),
        setupIntentId: idOf(session.setup_intent),
      };
    }
    case 'invoice.paid': {
      const invoice = event.data.object;
      const details = invoice.parent?.subscription_details;
      const subscriptionId = idOf(details?.subscription);
      const plan = readPlan(details?.metadata);
      const userId = details?.metadata?.[META.userId];
      if (!invoice.id || !subscriptionId || !plan || !userId) return ignored('not an OwnVoice subscription invoice');
      return {
        ...base,
        type: 'invoice.paid',
        invoiceId: invoice.id,
        subscriptionId,
        userId,
        ...plan,
        billingReason: billingReason(invoice.billing_reason),
        amountPaidCents: invoice.amount_paid,
      };
    }
    case 'customer.subscription.created':
    case 'customer.subscription.updated':
    case 'customer.subscription.deleted':
      return { ...base, type: 'subscription.changed', subscriptionId: event.data.object.id };
    default:
      return ignored('not an event billing acts on');
  }
}

/** The plan and cycle kept in a subscription's metadata, or null when they are not ours. */
export function readPlan(metadata: Metadata): { plan: PaidPlanName; billingCycle: BillingCycle } | null {
  const plan = oneOf(PAID_PLAN_NAMES, metadata?.[META.plan]);
  const billingCycle = oneOf(BILLING_CYCLES, metadata?.[META.billingCycle]);
  return plan && billingCycle ? { plan, billingCycle } : null;
}

function billingReason(reason: Stripe.Invoice.BillingReason | null): 'create' | 'cycle' | 'update' | 'other' {
  switch (reason) {
    case 'subscription_create':
      return 'create';
    case 'subscription_cycle':
      return 'cycle';
    case 'subscription_update':
      return 'update';
    default:
      return 'other';
  }
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
