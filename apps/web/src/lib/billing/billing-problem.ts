// What a billing screen says when a call fails. Refusals the person can act on (a declined card, a
// bank asking to confirm, no second trial, the provider out of reach) carry the server's own words,
// which say why and what to do, and a link to pay when there is one; anything else gets the
// screen's general line, since the server's text would then mean little to the person.
import { isApiError } from '../api-error';
import { isSafeCheckoutUrl } from './go-to-checkout';

/** Where to pay (or confirm) an unpaid invoice at the provider, and what the button says. */
export interface PayLink {
  url: string;
  label: 'Pay now' | 'Confirm payment';
}

export interface BillingProblem {
  message: string;
  pay: PayLink | null;
}

/** Codes whose message is written for the person (decision 20.1: "told the bank's reason and what to do"). */
const ACTIONABLE_CODES: ReadonlySet<string> = new Set([
  'PAYMENT_DECLINED',
  'PAYMENT_REQUIRES_ACTION',
  'TRIAL_UNAVAILABLE',
  'PAYMENT_PROVIDER_ERROR',
  // "You already have a subscription. Change your plan from the plans page…": the way on.
  'SUBSCRIPTION_EXISTS',
  // "Your subscription has already ended. Choose a plan to subscribe again."
  'NO_SUBSCRIPTION',
]);

/** A link to the provider's page, or null when there is none this page will open. */
export function payLink(url: unknown, requiresAction: boolean): PayLink | null {
  if (typeof url !== 'string' || url === '' || !isSafeCheckoutUrl(url)) return null;
  return { url, label: requiresAction ? 'Confirm payment' : 'Pay now' };
}

export const plainProblem = (message: string): BillingProblem => ({ message, pay: null });

/** The problem to show for a failed billing call; `fallback` when the server's words are not for the person. */
export function billingProblem(error: unknown, fallback: string): BillingProblem {
  if (!isApiError(error) || !error.code || !ACTIONABLE_CODES.has(error.code) || !error.msg) {
    return plainProblem(fallback);
  }
  return { message: error.msg, pay: payLink(error.details.payUrl, error.code === 'PAYMENT_REQUIRES_ACTION') };
}

/** No second trial for this person (an address or card that had one): a plan is the way on. */
export const isTrialUnavailable = (error: unknown): boolean => isApiError(error) && error.code === 'TRIAL_UNAVAILABLE';
