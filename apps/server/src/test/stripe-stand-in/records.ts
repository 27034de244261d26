// The objects the stand-in keeps, in Stripe's shapes for the SDK's API version: the fields
// OwnVoice reads plus the identifying ones, typed from the SDK so a renamed field fails to compile.
import type Stripe from 'stripe';
import type { Interval, List, Metadata } from './form.js';

export type PriceRecord = Pick<
  Stripe.Price,
  'id' | 'object' | 'active' | 'billing_scheme' | 'created' | 'currency' | 'livemode' | 'lookup_key' | 'nickname'
> &
  Pick<Stripe.Price, 'tax_behavior' | 'type' | 'unit_amount'> & {
    metadata: Metadata;
    product: string;
    recurring: { interval: Interval; interval_count: number; meter: null; usage_type: 'licensed' } | null;
  };

export type ProductRecord = Pick<
  Stripe.Product,
  'id' | 'object' | 'active' | 'created' | 'livemode' | 'name' | 'updated'
> & {
  metadata: Metadata;
};

export type CustomerRecord = Pick<Stripe.Customer, 'id' | 'object' | 'created' | 'email' | 'livemode'> & {
  metadata: Metadata;
  invoice_settings: { default_payment_method: string | null };
};

export type SessionRecord = Pick<
  Stripe.Checkout.Session,
  'id' | 'object' | 'amount_total' | 'cancel_url' | 'client_reference_id' | 'created' | 'currency' | 'expires_at'
> &
  Pick<
    Stripe.Checkout.Session,
    'billing_address_collection' | 'livemode' | 'mode' | 'payment_status' | 'status' | 'success_url' | 'url'
  > & {
    automatic_tax: { enabled: boolean; liability: null; provider: null; status: null };
    metadata: Metadata;
    customer: string | null;
    invoice: string | null;
    payment_intent: string | null;
    setup_intent: string | null;
    subscription: string | null;
  };

export type SetupIntentRecord = Pick<
  Stripe.SetupIntent,
  'id' | 'object' | 'created' | 'livemode' | 'status' | 'usage'
> & {
  metadata: Metadata;
  customer: string | null;
  payment_method: string | null;
};

export type ItemRecord = Pick<
  Stripe.SubscriptionItem,
  'id' | 'object' | 'created' | 'current_period_end' | 'current_period_start' | 'quantity' | 'subscription'
> & { metadata: Metadata; price: PriceRecord };

export type SubscriptionRecord = Pick<
  Stripe.Subscription,
  'id' | 'object' | 'billing_cycle_anchor' | 'cancel_at' | 'cancel_at_period_end' | 'canceled_at' | 'created'
> &
  Pick<Stripe.Subscription, 'collection_method' | 'currency' | 'ended_at' | 'livemode' | 'start_date' | 'status'> & {
    automatic_tax: { enabled: boolean; disabled_reason: null; liability: null };
    metadata: Metadata;
    customer: string;
    default_payment_method: string | null;
    items: List<ItemRecord>;
    latest_invoice: string | null;
    schedule: string | null;
    /** Its discounts' ids, waiting for the next invoice (coupons of `duration: once`). */
    discounts: string[];
  };

export type CouponRecord = Pick<
  Stripe.Coupon,
  'id' | 'object' | 'amount_off' | 'created' | 'currency' | 'duration' | 'livemode' | 'percent_off' | 'valid'
> & { metadata: Metadata };

/** A coupon redeemed on a subscription (SDK: Discount). */
export interface DiscountRecord {
  id: string;
  object: 'discount';
  coupon: CouponRecord;
  subscription: string;
  start: number;
  end: null;
}

export interface PhaseRecord {
  start_date: number;
  end_date: number;
  billing_cycle_anchor: 'phase_start' | 'automatic' | null;
  items: { price: string; quantity: number; metadata: Metadata }[];
  metadata: Metadata;
  proration_behavior: Stripe.SubscriptionSchedule.Phase.ProrationBehavior;
}

export type ScheduleRecord = Pick<
  Stripe.SubscriptionSchedule,
  'id' | 'object' | 'canceled_at' | 'completed_at' | 'created' | 'current_phase' | 'end_behavior' | 'livemode'
> &
  Pick<Stripe.SubscriptionSchedule, 'released_at' | 'released_subscription' | 'status'> & {
    metadata: Metadata;
    customer: string;
    subscription: string | null;
    phases: PhaseRecord[];
  };

export interface LineRecord {
  id: string;
  object: 'line_item';
  amount: number;
  currency: string;
  description: string;
  invoice: string;
  quantity: number;
  period: { start: number; end: number };
  pricing: { type: 'price_details'; price_details: { price: string; product: string }; unit_amount_decimal: string };
  parent:
    | {
        type: 'subscription_item_details';
        invoice_item_details: null;
        subscription_item_details: {
          invoice_item: string | null;
          proration: boolean;
          proration_details: null;
          subscription: string;
          subscription_item: string;
        };
      }
    | {
        type: 'invoice_item_details';
        invoice_item_details: {
          invoice_item: string;
          proration: boolean;
          proration_details: null;
          subscription: string;
        };
        subscription_item_details: null;
      };
}

export type InvoiceRecord = Pick<
  Stripe.Invoice,
  'id' | 'object' | 'amount_due' | 'amount_paid' | 'amount_remaining' | 'attempt_count' | 'attempted' | 'billing_reason'
> &
  Pick<
    Stripe.Invoice,
    'created' | 'currency' | 'livemode' | 'next_payment_attempt' | 'period_end' | 'period_start' | 'status'
  > &
  Pick<Stripe.Invoice, 'status_transitions' | 'subtotal' | 'total'> & {
    discounts: string[];
    total_discount_amounts: { amount: number; discount: string }[];
    automatic_tax: { enabled: boolean; disabled_reason: null; liability: null; provider: null; status: null };
    customer: string;
    hosted_invoice_url: string | null;
    lines: List<LineRecord>;
    parent: {
      type: 'subscription_details';
      quote_details: null;
      subscription_details: { subscription: string; metadata: Metadata };
    };
  };

/** An invoice's payment: Stripe's InvoicePayment, which `expand[]=payments` shows on the invoice. */
export type InvoicePaymentRecord = Pick<
  Stripe.InvoicePayment,
  'id' | 'object' | 'amount_paid' | 'amount_requested' | 'created' | 'currency' | 'is_default' | 'livemode' | 'status'
> & {
  invoice: string;
  payment: { type: 'payment_intent'; payment_intent: string };
  status_transitions: { canceled_at: number | null; paid_at: number | null };
};

export type PaymentMethodRecord = Pick<Stripe.PaymentMethod, 'id' | 'object' | 'created' | 'livemode' | 'type'> & {
  customer: string | null;
  card: { brand: string; last4: string; exp_month: number; exp_year: number; fingerprint: string; funding: string };
};

export type PaymentIntentRecord = Pick<
  Stripe.PaymentIntent,
  'id' | 'object' | 'amount' | 'amount_received' | 'created' | 'currency' | 'description' | 'livemode' | 'status'
> & {
  customer: string | null;
  last_payment_error: { type: 'card_error'; code: string; decline_code: string; message: string } | null;
  latest_charge: string | null;
  metadata: Metadata;
  next_action: { type: 'use_stripe_sdk' } | null;
  payment_method: string | null;
};

export type ChargeRecord = Pick<
  Stripe.Charge,
  'id' | 'object' | 'amount' | 'amount_captured' | 'amount_refunded' | 'captured' | 'created' | 'currency'
> &
  Pick<Stripe.Charge, 'disputed' | 'livemode' | 'paid' | 'refunded' | 'status'> & {
    customer: string | null;
    metadata: Metadata;
    payment_intent: string;
    payment_method: string | null;
  };

export type RefundRecord = Pick<Stripe.Refund, 'id' | 'object' | 'amount' | 'created' | 'currency' | 'status'> & {
  charge: string;
  metadata: Metadata;
  payment_intent: string;
};

export type DisputeRecord = Pick<
  Stripe.Dispute,
  'id' | 'object' | 'amount' | 'created' | 'currency' | 'is_charge_refundable' | 'livemode' | 'reason' | 'status'
> & {
  charge: string;
  metadata: Metadata;
  payment_intent: string;
};
