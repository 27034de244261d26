// What the payment success page offers next.
import { isAtLeast, isOnboardingActive, type User } from '@ownvoice/shared';
import type { ConfirmationState } from '../../lib/billing/payment-confirmation';
import { PATHS } from '../../lib/paths';

/** Seconds before the page goes back by itself to where a pack was bought from. */
export const CONTINUE_AFTER_SECONDS = 5;

export interface NextStep {
  label: string;
  to: string;
}

/**
 * Someone still before their first Voice goes on to create it (the dashboard is not open to
 * them yet); everyone else goes to the dashboard, with creating a Voice beside it.
 */
export function nextSteps(user: Pick<User, 'onboarding' | 'plan'> | null): NextStep[] {
  // No trial started: a plan is the way on.
  if (user?.plan.trialRefused) return [{ label: 'Choose a plan', to: PATHS.plans }];
  const step = user?.onboarding.step;
  if (step && isOnboardingActive(step) && !isAtLeast(step, 'training_started')) {
    return [
      { label: 'Create your first Voice', to: PATHS.createVoice },
      { label: 'View account', to: PATHS.account },
    ];
  }
  return [
    { label: 'Go to Dashboard', to: PATHS.dashboard },
    { label: 'Create a Voice', to: PATHS.createVoice },
  ];
}

/** Where to go back to by itself: the remembered page, once the payment has settled one way or another. */
export const autoContinueTarget = (returnTo: string | null, state: ConfirmationState): string | null =>
  returnTo !== null && state !== 'confirming' ? returnTo : null;
