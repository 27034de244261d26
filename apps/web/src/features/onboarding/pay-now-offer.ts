// The onboarding plans page offers the pay-now discount only where it can still be had: a first
// plan, chosen before any trial or plan (the server's `payNowAvailable`). Others see list prices,
// are told why, and their checkout does not ask for the discount (the server would refuse it).
import { PAY_NOW_DISCOUNT_PERCENT, type PlanSelection, type User } from '@ownvoice/shared';
import { planCardAction } from '../../lib/billing/plan-card-action';

export interface PayNowOffer {
  /** Show the discounted prices, and ask for them at the checkout. */
  discounted: boolean;
  title: string;
  intro: string;
  /** Why the discount is not shown; null when it is. */
  note: string | null;
}

export const PAY_NOW_UNAVAILABLE_NOTE = 'The pay-now discount is for a first plan chosen at sign-up.';

/** A signed-out visitor would sign up first, and a new account can have the discount. */
export function payNowOffer(user: Pick<User, 'plan'> | null): PayNowOffer {
  if (!user || user.plan.payNowAvailable) {
    return {
      discounted: true,
      title: `Pay now and save ${PAY_NOW_DISCOUNT_PERCENT}% for life`,
      intro: `Pick a plan: you keep ${PAY_NOW_DISCOUNT_PERCENT}% off every payment, renewals included, for as long as you stay.`,
      note: null,
    };
  }
  return {
    discounted: false,
    title: 'Choose a plan',
    intro: 'Pick a plan, monthly or annually.',
    note: PAY_NOW_UNAVAILABLE_NOTE,
  };
}

/**
 * What a card's button does here: sign up first; buy (a first plan's checkout); or, for a change
 * to a running subscription, go to the plans page, which states the charge and asks first.
 */
export type OnboardingPlanButton =
  | { kind: 'register' }
  | { kind: 'plans-page'; label: string }
  | { kind: 'buy'; label: string; disabled: boolean };

export function onboardingPlanButton(
  user: Pick<User, 'plan' | 'subscription'> | null,
  selection: PlanSelection,
): OnboardingPlanButton {
  if (!user) return { kind: 'register' };
  const action = planCardAction(user, selection);
  if (action.kind === 'upgrade' || action.kind === 'downgrade') return { kind: 'plans-page', label: action.label };
  return { kind: 'buy', label: action.label, disabled: action.disabled };
}
