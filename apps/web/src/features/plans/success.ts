// What the payment success page offers next.
import { isAtLeast, isOnboardingActive, TRIAL_CHARGE_STATEMENT, TRIAL_PLAN_STARTS, type User } from '@ownvoice/shared';
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

/** What the success page says: a saved card for the trial is not a payment. */
export interface SuccessWording {
  pageTitle: string;
  confirming: { heading: string; text: string };
  /** Once settled: the heading and the text under it. */
  settled: { heading: string; text: string };
}

const PAYMENT_TEXT: Record<Exclude<ConfirmationState, 'confirming'>, string> = {
  confirmed: 'Your payment is confirmed and your new usage is ready.',
  pending:
    'Your payment went through. It can take a minute to reach your account: your account page shows it once it arrives.',
  unknown: 'Your payment went through. Your new usage is added as soon as the payment provider confirms it.',
  trial_refused:
    'Your card is saved, but this address or card has had a trial before, so no new trial started and nothing was charged. Choose a plan to go on.',
};

export function successWording(state: ConfirmationState, payLater: boolean): SuccessWording {
  if (!payLater) {
    return {
      pageTitle: 'Payment successful',
      confirming: {
        heading: 'Confirming your payment…',
        text: 'This takes a few seconds while the payment provider tells us it went through.',
      },
      settled: {
        heading: state === 'trial_refused' ? 'No second trial' : 'Thank you!',
        text: state === 'confirming' ? '' : PAYMENT_TEXT[state],
      },
    };
  }
  const settled =
    state === 'trial_refused'
      ? { heading: 'No second trial', text: PAYMENT_TEXT.trial_refused }
      : state === 'confirmed'
        ? {
            heading: 'Your trial has started',
            text: `Your card is saved and nothing was charged today. ${TRIAL_PLAN_STARTS} ${TRIAL_CHARGE_STATEMENT}`,
          }
        : {
            heading: 'Your card is saved',
            text: `Nothing was charged today. Your trial starts as soon as the payment provider confirms the card: your account page shows it. ${TRIAL_PLAN_STARTS} ${TRIAL_CHARGE_STATEMENT}`,
          };
  return {
    pageTitle: state === 'trial_refused' ? 'Card saved' : 'Trial started',
    confirming: {
      heading: 'Starting your trial…',
      text: 'This takes a few seconds while the payment provider tells us your card is saved. Nothing is charged today.',
    },
    settled,
  };
}
