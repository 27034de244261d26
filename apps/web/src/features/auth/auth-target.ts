// Where the auth screen sends someone after success: the redirect it was given (a path on this
// site), else the default for the tab. The landing page's Login carries the onboarding plans page
// for a visitor who may be new; someone already paying, or past onboarding, has nothing to choose
// there and goes to their dashboard instead.
import { isOnboardingActive, isPaidPlan, type User } from '@ownvoice/shared';
import { PATHS, safeRedirectTarget } from '../../lib/paths';

const pathOf = (target: string): string => target.split(/[?#]/)[0] ?? target;

/** True while the onboarding plans page still has a first plan to offer this person. */
const mayChooseFirstPlan = (user: Pick<User, 'plan' | 'onboarding'>): boolean =>
  !isPaidPlan(user.plan.name) && isOnboardingActive(user.onboarding.step);

export function authTarget(
  redirect: string | null,
  fallback: string,
  user: Pick<User, 'plan' | 'onboarding'> | null,
): string {
  const target = safeRedirectTarget(redirect) ?? fallback;
  if (user && pathOf(target) === PATHS.onboardingPlans && !mayChooseFirstPlan(user)) return PATHS.dashboard;
  return target;
}
