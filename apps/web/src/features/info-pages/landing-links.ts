// Where the landing page's plan and pack buttons lead: signed-in visitors straight to the plans
// page, everyone else to sign-up first, coming back there afterwards.
import { authPath, PATHS, PLANS_TOPUPS_PATH } from '../../lib/paths';

export function landingBuyLinks(signedIn: boolean): { plan: string; pack: string } {
  return signedIn
    ? { plan: PATHS.plans, pack: PLANS_TOPUPS_PATH }
    : { plan: authPath('register', PATHS.plans), pack: authPath('register', PLANS_TOPUPS_PATH) };
}
