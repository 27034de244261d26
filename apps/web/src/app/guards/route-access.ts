// The private route guard's decision, kept free of React so it can be tested alone.
import { isOnboardingActive, isPaidPlan, mayOpenWhileOnboarding, type User } from '@ownvoice/shared';
import { PATHS } from '../../lib/paths';

export type AccessDecision = { kind: 'render' } | { kind: 'redirect'; to: string };

const isPlansPath = (pathname: string) => pathname === PATHS.plans || pathname.startsWith(`${PATHS.plans}/`);
/** Where a checkout sends the browser back: whoever paid (or cancelled) must see how it went. */
const isPaymentReturn = (pathname: string) => pathname === PATHS.plansSuccess || pathname === PATHS.plansCancel;

/**
 * Whether a signed-in user may see a path, or where to send them instead. Users still
 * onboarding (and not paying) see only what their step allows; the rest goes to the choice
 * screen. A user whose pay-later trial is ready has chosen already, so they go to the plans
 * page instead, which they may then open.
 */
export function decidePrivateAccess(user: Pick<User, 'onboarding' | 'plan'>, pathname: string): AccessDecision {
  const { step } = user.onboarding;
  const plan = user.plan.name;
  const trialReady = step === 'trial_ready' && isOnboardingActive(step) && !isPaidPlan(plan);

  if (isPaymentReturn(pathname)) return { kind: 'render' };
  if (trialReady && isPlansPath(pathname)) return { kind: 'render' };
  if (mayOpenWhileOnboarding(pathname, step, plan)) return { kind: 'render' };
  return { kind: 'redirect', to: trialReady ? PATHS.plans : PATHS.onboardingChoice };
}
