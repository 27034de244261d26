// What the account's own subscription's current state (as the provider has it) means for the
// user's row. Billing reads the provider's state afresh under the account's lock before applying
// it, so whatever order events arrive in, the row ends as the provider's latest state. Which
// subscription is the account's own is decided before (billing-events.service.ts, adopt).
import { isPaidPlanName as isPaid, PLANS } from '@ownvoice/shared';
import type { PaymentDue, UserRow } from '../../db/schema.js';
import type { SubscriptionState } from '../../payments/provider.js';

export type SubscriptionPatch = Partial<
  Pick<
    UserRow,
    | 'planName'
    | 'billingCycle'
    | 'subscriptionStatus'
    | 'cancelAtPeriodEnd'
    | 'providerSubscriptionId'
    | 'providerCustomerId'
    | 'currentPeriodEnd'
    | 'pendingPlan'
    | 'pendingBillingCycle'
    | 'pendingEffectiveAt'
    | 'pendingForSubscriptionId'
    | 'payNowDiscount'
    | 'trialStartedAt'
    | 'trialSetupIntentId'
    | 'paymentDue'
  >
>;

export interface SyncResult {
  patch: SubscriptionPatch;
  /** The storage slots the account's plan now comes with; null leaves them as they are. */
  planStorageSlots: number | null;
  /** What happened, for the account's activity: null when nothing a person would notice changed. */
  change: 'started' | 'ended' | 'trial_unpaid' | 'payment_failed' | 'payment_fixed' | null;
}

/** The user's subscription fields from the state of the subscription that is (or becomes) theirs. */
export function syncSubscription(user: UserRow, state: SubscriptionState): SyncResult {
  const ids = { providerSubscriptionId: state.id, providerCustomerId: state.customerId };
  if (state.status === 'canceled') {
    // An unpaid trial end that expired ends the trial; an ended plan leaves no plan.
    const wasTrial = user.planName === 'trial';
    return {
      patch: {
        planName: 'none',
        billingCycle: null,
        subscriptionStatus: 'canceled',
        cancelAtPeriodEnd: false,
        currentPeriodEnd: null,
        ...noPendingChange,
        paymentDue: null,
        trialStartedAt: null,
        trialSetupIntentId: null,
      },
      planStorageSlots: 0,
      change: wasTrial ? 'trial_unpaid' : user.planName === 'none' ? null : 'ended',
    };
  }
  if (state.status === 'incomplete') {
    // Not paid yet: not the person's plan. The account shows what to pay; the plan it had stays.
    return {
      patch: { ...ids, paymentDue: paymentDue(state, true) },
      planStorageSlots: null,
      change: user.paymentDue ? null : 'payment_failed',
    };
  }
  const change = state.scheduledChange;
  const due = paymentDue(state, false);
  return {
    patch: {
      ...ids,
      planName: state.plan,
      billingCycle: state.billingCycle,
      // The account screen shows a subscription set to end as cancelled, with Reactivate.
      subscriptionStatus: state.cancelAtPeriodEnd ? 'canceled' : 'active',
      cancelAtPeriodEnd: state.cancelAtPeriodEnd,
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
      paymentDue: due,
    },
    planStorageSlots: PLANS[state.plan].storageSlots,
    change:
      !due && user.paymentDue
        ? 'payment_fixed'
        : !isPaid(user.planName)
          ? 'started'
          : due && !user.paymentDue
            ? 'payment_failed'
            : null,
  };
}

function paymentDue(state: SubscriptionState, blocksPlan: boolean): PaymentDue | null {
  const unpaid = state.unpaidInvoice;
  if (!unpaid) return null;
  return {
    invoiceId: unpaid.id,
    amountCents: unpaid.amountDueCents,
    payUrl: unpaid.payUrl,
    failure: unpaid.failure,
    requiresAction: unpaid.requiresAction,
    blocksPlan,
  };
}

const noPendingChange = {
  pendingPlan: null,
  pendingBillingCycle: null,
  pendingEffectiveAt: null,
  pendingForSubscriptionId: null,
} as const;
