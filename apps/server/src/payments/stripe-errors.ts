// Stripe's errors as PaymentProviderErrors a person or the operator can act on: a declined card
// with the bank's words, a bank that asks to confirm, a key or setup that is wrong, Stripe busy or
// out of reach; anything that is not Stripe's is a bug, passed on as it is.
import Stripe from 'stripe';
import { PaymentProviderError } from './provider.js';

/**
 * Stripe's codes for a payment the bank wants the customer to confirm (3-D Secure): on an
 * invoice's payment, and as the decline code of an off-session charge (SDK: the error codes of
 * PaymentIntent.LastPaymentError.Code).
 */
const AUTHENTICATION_CODES = new Set(['invoice_payment_intent_requires_action', 'authentication_required']);

/** Stripe's error as one a person or the operator can act on; anything else is a bug, passed on. */
export function providerError(action: string, error: unknown): unknown {
  if (!(error instanceof Stripe.errors.StripeError)) return error;
  const status = error.statusCode;
  if (AUTHENTICATION_CODES.has(error.code ?? '') || AUTHENTICATION_CODES.has(error.decline_code ?? '')) {
    return new PaymentProviderError(
      `The bank asks to confirm this payment (3-D Secure), which cannot be done here, so Stripe could not ${action}. Nothing was charged. Try another card, or ask the bank to allow the payment.`,
      'requires_action',
      status,
    );
  }
  if (error instanceof Stripe.errors.StripeCardError) {
    return new PaymentProviderError(
      `The card was declined: ${error.message} Nothing was charged. Try another card.`,
      'card_declined',
      status,
    );
  }
  if (
    error instanceof Stripe.errors.StripeAuthenticationError ||
    error instanceof Stripe.errors.StripePermissionError
  ) {
    return new PaymentProviderError(
      `Stripe refused the secret key, so could not ${action}: check STRIPE_SECRET_KEY.`,
      'misconfigured',
      status,
    );
  }
  if (error instanceof Stripe.errors.StripeConnectionError) {
    return new PaymentProviderError(`Could not reach Stripe to ${action}. Try again in a moment.`, 'unavailable', 503);
  }
  if (error instanceof Stripe.errors.StripeRateLimitError || error instanceof Stripe.errors.StripeAPIError) {
    return new PaymentProviderError(
      `Stripe is busy and could not ${action}. Try again in a moment.`,
      'unavailable',
      status,
    );
  }
  if (status === 404) {
    return new PaymentProviderError(`Stripe could not ${action}: ${error.message}`, 'not_found', status);
  }
  return new PaymentProviderError(`Stripe could not ${action}: ${error.message}`, 'refused', status);
}
