// Where the landing page's plan and pack buttons lead: signed-in visitors straight to the plans
// page, everyone else to sign-up first; a chosen plan carries through sign-up to its checkout
// (the onboarding plans page starts it), a pack comes back to the plans page's packs.
import type { PaidPlanName } from '@ownvoice/shared';
import { authPath, onboardingPlanPath, PATHS, PLANS_TOPUPS_PATH } from '../../lib/paths';

export function landingBuyLinks(signedIn: boolean): { plan: (plan: PaidPlanName) => string; pack: string } {
  return signedIn
    ? { plan: () => PATHS.plans, pack: PLANS_TOPUPS_PATH }
    : { plan: (plan) => authPath('register', onboardingPlanPath(plan)), pack: authPath('register', PLANS_TOPUPS_PATH) };
}
