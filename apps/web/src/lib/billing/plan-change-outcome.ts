// What the server's answer to a plan choice means for the page.
import type { ChangePlanResponse } from '@ownvoice/shared';

export type PlanChangeOutcome =
  /** No paid subscription yet: pay at the provider's checkout. */
  | { kind: 'checkout'; url: string }
  /** Changed at once: a new period of the new plan, charged in full. */
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
