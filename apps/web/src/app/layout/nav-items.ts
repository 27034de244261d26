// Which links the navbar shows, which one is active, and which are greyed
// until onboarding allows them. Pure, so the header and the phone menu render the same list.
import { isAdminRole, mayUseConvertAndCreate, mayUsePlans, type User } from '@ownvoice/shared';
import { authPath, PATHS } from '../../lib/paths';

export interface NavItem {
  label: string;
  to: string;
  active: boolean;
  /** Why the link is greyed out; undefined when it can be used. */
  lockedReason?: string;
}

const under = (pathname: string, base: string) => pathname === base || pathname.startsWith(`${base}/`);

export function navItems(
  user: Pick<User, 'role' | 'onboarding' | 'plan'> | null,
  pathname: string,
  search = '',
): NavItem[] {
  const common: NavItem[] = [
    { label: 'About', to: PATHS.about, active: under(pathname, PATHS.about) },
    { label: 'How To', to: PATHS.howTo, active: under(pathname, PATHS.howTo) },
  ];

  if (!user) {
    const onLoginTab = pathname === PATHS.auth && new URLSearchParams(search).get('tab') === 'login';
    return [
      ...common,
      { label: 'Login', to: authPath('login'), active: onLoginTab || pathname === PATHS.login },
      {
        label: 'Register',
        to: authPath('register'),
        active: (pathname === PATHS.auth && !onLoginTab) || pathname === PATHS.register,
      },
    ];
  }

  const step = user.onboarding.step;
  const plan = user.plan.name;
  const writingLock = mayUseConvertAndCreate(step, plan) ? undefined : 'Create your first Voice to unlock';
  const plansLock = mayUsePlans(step, plan) ? undefined : 'Unlocks once you finish the Create quickstart';

  // Paths under /dashboard/create (Voice creation and Create Content) count as Create.
  const inCreate = pathname.startsWith(PATHS.createVoice);
  const inDashboard =
    pathname === PATHS.dashboard || under(pathname, PATHS.voices) || under(pathname, PATHS.publicVoices);

  const items: NavItem[] = [
    ...common,
    { label: 'Dashboard', to: PATHS.dashboard, active: inDashboard },
    { label: 'Convert', to: PATHS.convert, active: under(pathname, PATHS.convert), lockedReason: writingLock },
    { label: 'Create', to: PATHS.createContent, active: inCreate, lockedReason: writingLock },
    { label: 'Buy More Usage', to: PATHS.plans, active: under(pathname, PATHS.plans), lockedReason: plansLock },
  ];
  if (isAdminRole(user.role)) {
    items.push({ label: 'Admin', to: PATHS.admin, active: under(pathname, PATHS.admin) });
  }
  items.push({ label: 'Account', to: PATHS.account, active: under(pathname, PATHS.account) });
  return items;
}
