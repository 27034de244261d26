// What the billing screens say when a call fails.
import { isApiError } from '../api-error';

export const BILLING_MESSAGES = {
  planCheckoutFailed: 'Failed to start checkout. Please try again.',
  changePlanFailed: 'Failed to change plan. Please try again.',
  finishTutorialFailed: 'Failed to finish tutorial. Please try again.',
  finishTrialFailed: 'Failed to finish trial. Please try again.',
  cancelFailed: 'Failed to cancel subscription',
  reactivateFailed: 'Failed to reactivate subscription',
  checkoutFallback: 'Failed to start checkout.',
} as const;

/** A pack checkout that failed: "Error: " and the server's own words, else a general line. */
export function checkoutFailureMessage(error: unknown): string {
  const detail = isApiError(error) ? error.errors[0]?.msg || error.msg : error instanceof Error ? error.message : '';
  return `Error: ${detail || BILLING_MESSAGES.checkoutFallback}`;
}
