// Every route path of the app and the links built from them, so no page spells a URL by hand.

export const PATHS = {
  home: '/',
  auth: '/auth',
  forgotPassword: '/auth/forgot',
  resetPassword: '/auth/reset',
  /** An e-mailed link to confirm an address (a sign-up's, or a new address's): public, like a reset link. */
  verifyEmail: '/auth/verify',
  login: '/login',
  register: '/register',
  about: '/about',
  howTo: '/how-to',
  privacy: '/privacy',
  download: '/download',
  waitlist: '/waitlist',
  onboardingChoice: '/onboarding/choice',
  onboardingPlans: '/onboarding/plans',
  onboardingPayLater: '/onboarding/pay-later',
  dashboard: '/dashboard',
  createVoice: '/dashboard/create',
  voices: '/dashboard/loras',
  convert: '/dashboard/convert',
  createContent: '/dashboard/create-content',
  account: '/dashboard/account',
  plans: '/dashboard/plans',
  plansSuccess: '/dashboard/plans/success',
  plansCancel: '/dashboard/plans/cancel',
  publicVoices: '/dashboard/public-loras',
  admin: '/admin',
  adminDashboard: '/admin/dashboard',
} as const;

/** Route patterns with a parameter: the router matches them, the functions below fill them in. */
export const ROUTE_PATTERNS = {
  voice: `${PATHS.voices}/:id`,
  voiceTraining: `${PATHS.voices}/:id/training`,
  userActivity: '/admin/users/:id/activity',
  /** A public page: an admin invitation link opens it, signed in or not. */
  invitation: '/invite/:token',
} as const;

export type AuthTab = 'register' | 'login';

/** /auth with a tab and, when given, the encoded page to return to afterwards. */
export function authPath(tab: AuthTab, redirect?: string): string {
  const params = new URLSearchParams({ tab });
  if (redirect) params.set('redirect', redirect);
  return `${PATHS.auth}?${params.toString()}`;
}

const withId = (pattern: string, id: string): string => pattern.replace(':id', () => encodeURIComponent(id));

export const voicePath = (id: string): string => withId(ROUTE_PATTERNS.voice, id);
export const voiceTrainingPath = (id: string): string => withId(ROUTE_PATTERNS.voiceTraining, id);
/** The query parameter that preselects a Voice on Convert and Create. */
export const VOICE_PARAM = 'loraId';

/** Convert, with a Voice preselected when one is given. */
export const convertPath = (loraId?: string): string =>
  loraId ? `${PATHS.convert}?${new URLSearchParams({ [VOICE_PARAM]: loraId }).toString()}` : PATHS.convert;
export const userActivityPath = (id: string): string => withId(ROUTE_PATTERNS.userActivity, id);
export const invitationPath = (token: string): string =>
  ROUTE_PATTERNS.invitation.replace(':token', () => encodeURIComponent(token));

/** The admin console on one of its tabs (the tab is kept in the address so links and reloads land there). */
export const ADMIN_TABS = ['overview', 'users', 'invites'] as const;
export type AdminTab = (typeof ADMIN_TABS)[number];
export const adminDashboardPath = (tab: AdminTab): string =>
  `${PATHS.adminDashboard}?${new URLSearchParams({ tab }).toString()}`;

/** The account page's query parameter that opens a dialog at once; an accepted invitation asks for two-factor. */
export const ACCOUNT_SETUP_PARAM = 'setup';
export const TWO_FACTOR_SETUP = 'two-factor';
export const ACCOUNT_TWO_FACTOR_SETUP_PATH = `${PATHS.account}?${ACCOUNT_SETUP_PARAM}=${TWO_FACTOR_SETUP}`;

/** The top-up packs on the plans page, which other pages link straight to. */
export const TOPUPS_ANCHOR = 'topups';
export const PLANS_TOPUPS_PATH = `${PATHS.plans}#${TOPUPS_ANCHOR}`;

/** The onboarding plans page's query parameter naming a plan chosen on the landing page. */
export const CHOSEN_PLAN_PARAM = 'plan';
/** The onboarding plans page, going straight on to this plan's checkout once signed in. */
export const onboardingPlanPath = (plan: string): string =>
  `${PATHS.onboardingPlans}?${new URLSearchParams({ [CHOSEN_PLAN_PARAM]: plan }).toString()}`;

/** Admins skip onboarding from the choice screen straight into Voice creation. */
export const ONBOARDING_BYPASS_PATH = `${PATHS.createVoice}?onboard=bypass`;

/**
 * A redirect target from the query string, accepted only when it is a path on this site, so a
 * crafted link cannot send a fresh sign-in to another origin.
 */
export function safeRedirectTarget(value: string | null | undefined): string | null {
  if (!value) return null;
  if (!value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return null;
  return value;
}
