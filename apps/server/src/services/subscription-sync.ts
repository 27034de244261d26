// What a subscription's current state (as the provider has it) means for the user's row. Billing
// always reads the provider's state afresh before applying it, so whatever order events arrive
// in, the row ends as the provider's latest state: a late event can never undo a newer one.
import { isPaidPlanName as isPaid, PLANS } from '@ownvoice/shared';
import type { UserRow } from '../db/schema.js';
import type { SubscriptionState } from '../payments/provider.js';

export type SubscriptionPatch = Partial<
  Pick<
    UserRow,
    | 'planName'
    | 'billingCycle'
    | 'subscriptionStatus'
    | 'cancelAtPeriodEnd'
    | 'stripeSubscriptionId'
    | 'stripeCustomerId'
    | 'currentPeriodEnd'
    | 'pendingPlan'
    | 'pendingBillingCycle'
    | 'pendingEffectiveAt'
    | 'pendingForSubscriptionId'
    | 'payNowDiscount'
    | 'trialStartedAt'
    | 'trialSetupIntentId'
  >
>;

export interface SyncResult {
  patch: SubscriptionPatch;
  /** The storage slots the user's plan now comes with. */
  planStorageSlots: number;
}

/**
 * The user's subscription fields from the provider's state, or null when the state does not
 * concern the user's current subscription (an older one ending, one not paid yet).
 */
export function syncSubscription(user: UserRow, state: SubscriptionState): SyncResult | null {
  if (state.status === 'incomplete') return null;
  const isCurrent = user.stripeSubscriptionId === state.id;
  if (state.status === 'canceled') {
    if (!isCurrent) return null;
    return {
      patch: {
        planName: 'none',
        billingCycle: null,
        subscriptionStatus: 'canceled',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: null,
        ...noPendingChange,
      },
      planStorageSlots: 0,
    };
  }
  // Another subscription replaces the one on the row only when that one no longer runs (a first
  // plan, a plan after the trial, or a new one after the last ended).
  const otherRunning = !isCurrent && user.stripeSubscriptionId !== null && isPaid(user.planName);
  if (otherRunning) return null;
  const change = state.scheduledChange;
  return {
    patch: {
      planName: state.plan,
      billingCycle: state.billingCycle,
      // The account screen shows a subscription set to end as cancelled, with Reactivate.
      subscriptionStatus: state.cancelAtPeriodEnd ? 'canceled' : 'active',
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
      stripeSubscriptionId: state.id,
      stripeCustomerId: state.customerId,
      currentPeriodEnd: state.currentPeriodEnd,
      ...(change
        ? {
            pendingPlan: change.plan,
            pendingBillingCycle: change.billingCycle,
            pendingEffectiveAt: change.effectiveAt,
            pendingForSubscriptionId: state.id,
          }
        : noPendingChange),
      payNowDiscount: user.payNowDiscount || state.payNow,
      trialStartedAt: null,
      trialSetupIntentId: null,
    },
    planStorageSlots: PLANS[state.plan].storageSlots,
  };
}

const noPendingChange = {
  pendingPlan: null,
  pendingBillingCycle: null,
  pendingEffectiveAt: null,
  pendingForSubscriptionId: null,
} as const;
