// What the server's answer to a plan choice means for the page.
import type { ChangePlanResponse } from '@ownvoice/shared';
import { isApiError } from '../api-error';

export type PlanChangeOutcome =
  /** No paid subscription yet: pay at the provider's checkout. */
  | { kind: 'checkout'; url: string }
  /** Changed at once and charged (prorated). */
  | { kind: 'upgraded' }
  /** A downgrade waiting for the end of the period. */
  | { kind: 'scheduled'; effectiveAt: string | null };

export function planChangeOutcome(response: ChangePlanResponse): PlanChangeOutcome {
  switch (response.action) {
    case 'checkout':
      if (!response.url) throw new Error('The server started a checkout without an address to go to.');
      return { kind: 'checkout', url: response.url };
    case 'upgraded':
      return { kind: 'upgraded' };
    case 'downgrade_scheduled':
      return { kind: 'scheduled', effectiveAt: response.effectiveAt };
  }
}

/** The pay-now checkout refuses someone who already subscribes: change their plan instead. */
export const isSubscriptionExists = (error: unknown): boolean =>
  isApiError(error) && error.status === 409 && error.code === 'SUBSCRIPTION_EXISTS';
