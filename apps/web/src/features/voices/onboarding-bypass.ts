// The admin bypass of onboarding: the choice screen's admin button opens Voice creation with the
// query of ONBOARDING_BYPASS_PATH; an admin arriving so has onboarding finished, then the query
// is dropped. Anyone else just has it dropped (the server would refuse them anyway).
import { isOnboardingActive, mayBypassOnboarding, type Role, type User } from '@ownvoice/shared';
import { ONBOARDING_BYPASS_PATH } from '../../lib/paths';

const BYPASS_QUERY = new URLSearchParams(ONBOARDING_BYPASS_PATH.split('?')[1] ?? '');

/** Whether a query string carries the bypass request. */
export function asksForBypass(search: string): boolean {
  const params = new URLSearchParams(search);
  const asked = [...BYPASS_QUERY];
  return asked.length > 0 && asked.every(([name, value]) => params.get(name) === value);
}

/** The query string without the bypass request, with "?" when anything is left. */
export function withoutBypass(search: string): string {
  const params = new URLSearchParams(search);
  for (const name of BYPASS_QUERY.keys()) params.delete(name);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}

export type BypassAction = 'finish' | 'drop' | null;

/** What the page does with the query: finish onboarding first, only drop the query, or nothing. */
export function bypassAction(search: string, user: Pick<User, 'onboarding'> & { role: Role }): BypassAction {
  if (!asksForBypass(search)) return null;
  return mayBypassOnboarding(user.role) && isOnboardingActive(user.onboarding.step) ? 'finish' : 'drop';
}
