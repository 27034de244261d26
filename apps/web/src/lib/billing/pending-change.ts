// A scheduled plan change (a downgrade waiting for the next period), shown on the account screen
// and the plans page.
import type { User } from '@ownvoice/shared';
import { formatDate } from '../format';
import { planWithCycle } from './plan-labels';

export type PendingChange = NonNullable<User['subscription']['pendingChange']> & {
  plan: NonNullable<NonNullable<User['subscription']['pendingChange']>['plan']>;
};

/** A pending change shows only when it names a plan and belongs to the current subscription. */
export function displayablePendingChange(user: Pick<User, 'subscription'>): PendingChange | null {
  const change = user.subscription.pendingChange;
  if (!change?.plan) return null;
  const forId = change.applyForSubscriptionId;
  return !forId || forId === user.subscription.stripeSubscriptionId ? { ...change, plan: change.plan } : null;
}

/** "Pro (monthly) from Mar 4, 2026". */
export const describePendingChange = (change: PendingChange): string =>
  `${planWithCycle(change.plan, change.billingCycle)}${change.effectiveAt ? ` from ${formatDate(change.effectiveAt)}` : ''}`;
