// Money moving in the stand-in: the cards buyers enter, the PaymentIntents and Charges that pay
// invoices and payment-mode checkouts, refunds and disputes. Subscriptions and checkouts
// (stand-in.ts) ask it to charge; it answers as the card does.
import { createHash } from 'node:crypto';
import type Stripe from 'stripe';
import { ApiError, invalid, newId, noSuch, type Params, page, text, whole } from './form.js';
import type { ChargeRecord, DisputeRecord, PaymentIntentRecord, PaymentMethodRecord, RefundRecord } from './records.js';

/**
 * How a test card behaves, after Stripe's test cards (https://docs.stripe.com/testing):
 * `works` is 4242 4242 4242 4242; `declines` is 4000 0000 0000 0002 (generic_decline, refused
 * whenever it is charged or saved); `requires_action` is 4000 0027 6000 3184, which "requires
 * authentication on all transactions, regardless of how the card is set up": it pays where the
 * buyer is on a Stripe page to confirm (Checkout, the hosted invoice page) and not off-session.
 */
export const TEST_CARDS = ['works', 'declines', 'requires_action'] as const;
export type TestCard = (typeof TEST_CARDS)[number];

const LAST4: Record<TestCard, string> = { works: '4242', declines: '0002', requires_action: '3184' };

/** What charging a card did: paid, refused by the bank, or waiting for the buyer to confirm. */
export type Outcome = 'succeeded' | 'declined' | 'requires_action' | 'no_card';

/** Stripe's decline, as the API and `last_payment_error` give it for the generic-decline card. */
const DECLINE = {
  type: 'card_error',
  code: 'card_declined',
  decline_code: 'generic_decline',
  message: 'Your card was declined.',
} as const;

/** A refused payment as an API error: what `payment_behavior=error_if_incomplete` answers (402). */
export function paymentError(outcome: Exclude<Outcome, 'succeeded'>): ApiError {
  switch (outcome) {
    case 'declined':
      return new ApiError(402, 'card_error', DECLINE.message, DECLINE.code, undefined, DECLINE.decline_code);
    case 'requires_action':
      // Stripe's answer when an invoice's payment needs the customer to authenticate: a
      // `card_error` with this code (one of the SDK's error codes), in Stripe's wording.
      return new ApiError(
        402,
        'card_error',
        'This payment requires additional user action before it can be completed successfully. Payment can be completed using the PaymentIntent associated with the invoice.',
        'invoice_payment_intent_requires_action',
      );
    case 'no_card':
      return invalid('This customer has no attached payment source or default payment method.');
  }
}

type Emit = (type: Stripe.Event.Type, object: object) => void;

export class Payments {
  readonly methods = new Map<string, PaymentMethodRecord>();
  readonly intents = new Map<string, PaymentIntentRecord>();
  readonly charges = new Map<string, ChargeRecord>();
  private readonly behaviours = new Map<string, TestCard>();
  private readonly refunds = new Map<string, RefundRecord>();
  private readonly disputes = new Map<string, DisputeRecord>();

  constructor(
    private readonly now: () => number,
    private readonly emit: Emit,
  ) {}

  /**
   * A card as a buyer enters it. Stripe gives the same card number the same `card.fingerprint`;
   * here a test names "the same card" by passing the same `fingerprint` string, and each card
   * entered without one is a different card.
   */
  addCard(card: TestCard, customer: string | null, fingerprint?: string): PaymentMethodRecord {
    const method: PaymentMethodRecord = {
      id: newId('pm'),
      object: 'payment_method',
      created: this.now(),
      livemode: false,
      type: 'card',
      customer,
      card: {
        brand: 'visa',
        last4: LAST4[card],
        exp_month: 12,
        exp_year: 2034,
        fingerprint: fingerprintOf(fingerprint ?? newId('card')),
        funding: 'credit',
      },
    };
    this.methods.set(method.id, method);
    this.behaviours.set(method.id, card);
    return method;
  }

  /** The cards saved on a customer. */
  cardsOf(customer: string): PaymentMethodRecord[] {
    return [...this.methods.values()].filter((method) => method.customer === customer);
  }

  behaveAs(paymentMethod: string, card: TestCard): void {
    this.behaviours.set(paymentMethod, card);
  }

  /** What charging the card would do, with the buyer on a Stripe page (`present`) or off-session. */
  outcome(paymentMethod: string | null, present: boolean): Outcome {
    const card = paymentMethod ? this.behaviours.get(paymentMethod) : undefined;
    if (!card) return 'no_card';
    if (card === 'declines') return 'declined';
    return card === 'requires_action' && !present ? 'requires_action' : 'succeeded';
  }

  createIntent(input: { amount: number; currency: string; customer: string | null; description: string }) {
    const intent: PaymentIntentRecord = {
      id: newId('pi'),
      object: 'payment_intent',
      amount: input.amount,
      amount_received: 0,
      created: this.now(),
      currency: input.currency,
      customer: input.customer,
      description: input.description,
      last_payment_error: null,
      latest_charge: null,
      livemode: false,
      metadata: {},
      next_action: null,
      payment_method: null,
      status: 'requires_payment_method',
    };
    this.intents.set(intent.id, intent);
    return intent;
  }

  /**
   * Tries to pay the intent with the card; answers the outcome. A decline leaves the intent
   * `requires_payment_method` with the bank's reason in `last_payment_error`; a card that needs
   * the buyer to authenticate leaves it `requires_action` with a `next_action` and no error
   * (https://docs.stripe.com/payments/paymentintents/lifecycle).
   */
  attempt(intent: PaymentIntentRecord, paymentMethod: string | null, present: boolean): Outcome {
    const outcome = this.outcome(paymentMethod, present);
    if (outcome === 'succeeded') {
      const charge: ChargeRecord = {
        id: newId('ch'),
        object: 'charge',
        amount: intent.amount,
        amount_captured: intent.amount,
        amount_refunded: 0,
        captured: true,
        created: this.now(),
        currency: intent.currency,
        customer: intent.customer,
        disputed: false,
        livemode: false,
        metadata: {},
        paid: true,
        payment_intent: intent.id,
        payment_method: paymentMethod,
        refunded: false,
        status: 'succeeded',
      };
      this.charges.set(charge.id, charge);
      Object.assign(intent, {
        status: 'succeeded',
        amount_received: intent.amount,
        latest_charge: charge.id,
        last_payment_error: null,
        next_action: null,
        payment_method: paymentMethod,
      });
    } else if (outcome === 'requires_action') {
      Object.assign(intent, {
        status: 'requires_action',
        last_payment_error: null,
        next_action: { type: 'use_stripe_sdk' },
        payment_method: paymentMethod,
      });
    } else {
      Object.assign(intent, {
        status: 'requires_payment_method',
        last_payment_error: outcome === 'declined' ? { ...DECLINE } : null,
        next_action: null,
        payment_method: null,
      });
    }
    return outcome;
  }

  cancel(intent: PaymentIntentRecord): void {
    intent.status = 'canceled';
  }

  intent(id: string): PaymentIntentRecord {
    const intent = this.intents.get(id);
    if (!intent) throw noSuch('payment_intent', id);
    return intent;
  }

  /**
   * POST /v1/refunds. As the SDK documents: a refund names a PaymentIntent (or Charge), may be
   * part of it and repeated until all is refunded, and raises an error on an already refunded
   * charge or for more than is left. Stripe then sends `charge.refunded` with the charge, whose
   * `amount_refunded` counts every refund so far.
   */
  refund(params: Params): RefundRecord {
    const intentId = text(params, 'payment_intent');
    const chargeId = text(params, 'charge');
    if (!intentId && !chargeId) throw invalid('One of `charge` or `payment_intent` is required.');
    let charge: ChargeRecord | undefined;
    if (intentId) {
      const intent = this.intents.get(intentId);
      if (!intent) throw noSuch('payment_intent', intentId, 400, 'payment_intent');
      charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined;
      if (!charge || intent.status !== 'succeeded') {
        throw invalid(
          `This PaymentIntent (${intentId}) does not have a successful charge to refund.`,
          'payment_intent',
        );
      }
    } else if (chargeId) {
      charge = this.charges.get(chargeId);
      if (!charge) throw noSuch('charge', chargeId, 400, 'charge');
    }
    if (!charge) throw invalid('Nothing to refund.');
    if (charge.refunded) {
      throw new ApiError(
        400,
        'invalid_request_error',
        `Charge ${charge.id} has already been refunded.`,
        'charge_already_refunded',
      );
    }
    const left = charge.amount - charge.amount_refunded;
    const amount = whole(params, 'amount') ?? left;
    if (amount < 1) throw invalid('Refund amount must be positive.', 'amount');
    if (amount > left) {
      throw invalid(
        `Refund amount (${cents(amount)}) is greater than unrefunded amount on charge (${cents(left)})`,
        'amount',
      );
    }
    const refund: RefundRecord = {
      id: newId('re'),
      object: 'refund',
      amount,
      charge: charge.id,
      created: this.now(),
      currency: charge.currency,
      metadata: {},
      payment_intent: charge.payment_intent,
      status: 'succeeded',
    };
    this.refunds.set(refund.id, refund);
    charge.amount_refunded += amount;
    charge.refunded = charge.amount_refunded === charge.amount;
    this.emit('charge.refunded', charge);
    return refund;
  }

  /** GET /v1/disputes, filtered by `payment_intent` or `charge` as the SDK's list params allow. */
  listDisputes(params: Params) {
    const intent = text(params, 'payment_intent');
    const charge = text(params, 'charge');
    const matching = [...this.disputes.values()].filter(
      (dispute) =>
        (intent === undefined || dispute.payment_intent === intent) &&
        (charge === undefined || dispute.charge === charge),
    );
    return page(matching, params, '/v1/disputes');
  }

  /**
   * The cardholder disputes the payment with their bank. A chargeback: Stripe opens a dispute on
   * the charge (`needs_response`, the charge `disputed`), sends `charge.dispute.created`, and takes
   * the money back, `charge.dispute.funds_withdrawn` ("Occurs when funds are removed from your
   * account due to a dispute", SDK: Event types). An inquiry: the bank only asks first; Stripe
   * shows it as a dispute with a `warning_` status ("Possible values include:
   * `warning_needs_response`, …", SDK: Dispute.status) and "unlike a formal dispute, no funds have
   * been withdrawn and the payment it relates to can still be refunded"
   * (https://stripe.com/docs/disputes, Inquiries and retrievals): `is_charge_refundable`.
   */
  openDispute(intentId: string, kind: 'chargeback' | 'inquiry' = 'chargeback'): DisputeRecord {
    const intent = this.intent(intentId);
    const charge = intent.latest_charge ? this.charges.get(intent.latest_charge) : undefined;
    if (!charge || intent.status !== 'succeeded')
      throw new Error(`Payment ${intentId} was not paid, so cannot be disputed.`);
    if ([...this.disputes.values()].some((dispute) => dispute.charge === charge.id)) {
      throw new Error(`Payment ${intentId} is already disputed.`);
    }
    const inquiry = kind === 'inquiry';
    const dispute: DisputeRecord = {
      id: newId('dp'),
      object: 'dispute',
      amount: charge.amount,
      charge: charge.id,
      created: this.now(),
      currency: charge.currency,
      is_charge_refundable: inquiry,
      livemode: false,
      metadata: {},
      payment_intent: intent.id,
      reason: inquiry ? 'unrecognized' : 'fraudulent',
      status: inquiry ? 'warning_needs_response' : 'needs_response',
    };
    this.disputes.set(dispute.id, dispute);
    charge.disputed = true;
    this.emit('charge.dispute.created', dispute);
    if (!inquiry) this.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  }

  /**
   * The bank is not satisfied and turns its inquiry into a formal dispute, which withdraws the
   * money (an inquiry is answered "to avoid it becoming a formal dispute",
   * https://stripe.com/docs/disputes). Stripe does not say whether the same Dispute moves on or a
   * new one opens; the stand-in moves the same one on to `needs_response`, and billing reads every
   * dispute of a payment, so either reads the same.
   */
  escalateDispute(intentId: string): DisputeRecord {
    const dispute = this.disputeOf(intentId);
    if (!dispute.status.startsWith('warning_') || dispute.status === 'warning_closed') {
      throw new Error(`The dispute on ${intentId} is not an open inquiry.`);
    }
    Object.assign(dispute, { status: 'needs_response', is_charge_refundable: false });
    this.emit('charge.dispute.funds_withdrawn', dispute);
    return dispute;
  }

  /**
   * The bank decides: a chargeback is `won` or `lost`, an inquiry closes as `warning_closed`, and
   * Stripe sends `charge.dispute.closed` ("Occurs when a dispute is closed and the dispute status
   * changes to `lost`, `warning_closed`, or `won`", SDK: Event types); a chargeback won gives the
   * money back, `charge.dispute.funds_reinstated`.
   */
  closeDispute(intentId: string, outcome: 'won' | 'lost' | 'warning_closed'): DisputeRecord {
    const dispute = this.disputeOf(intentId);
    if (['won', 'lost', 'warning_closed'].includes(dispute.status)) {
      throw new Error(`The dispute on ${intentId} is closed.`);
    }
    const inquiry = dispute.status.startsWith('warning_');
    if (inquiry !== (outcome === 'warning_closed')) {
      throw new Error(`An ${inquiry ? 'inquiry' : 'chargeback'} does not close as ${outcome}.`);
    }
    dispute.status = outcome;
    dispute.is_charge_refundable = false;
    this.emit('charge.dispute.closed', dispute);
    if (outcome === 'won') this.emit('charge.dispute.funds_reinstated', dispute);
    return dispute;
  }

  private disputeOf(intentId: string): DisputeRecord {
    const dispute = [...this.disputes.values()].find((each) => each.payment_intent === intentId);
    if (!dispute) throw new Error(`Payment ${intentId} is not disputed.`);
    return dispute;
  }
}

/** A stable fingerprint for a card, shaped like Stripe's (16 letters and digits). */
function fingerprintOf(card: string): string {
  return createHash('sha256')
    .update(card)
    .digest('base64')
    .replace(/[^A-Za-z0-9]/g, '')
    .slice(0, 16);
}

const cents = (amount: number) => `$${(amount / 100).toFixed(2)}`;
