// The pages of the web app that messages link to, as apps/web/src/lib/paths.ts spells them (the
// server cannot import the web app); MailService.link puts the site's address in front.

export const SITE_PATHS = {
  /** The account page: usage and payments, notices, two-factor, the trial and the plan. */
  account: '/dashboard/account',
  plans: '/dashboard/plans',
  login: '/login',
  /** The page that opens an address-confirmation link (PATHS.verifyEmail). */
  verifyEmail: (token: string): string => `/auth/verify?${new URLSearchParams({ token }).toString()}`,
  /** The page that opens a password-reset link (PATHS.resetPassword). */
  resetPassword: (token: string): string => `/auth/reset?${new URLSearchParams({ token }).toString()}`,
  /** A Voice's page (ROUTE_PATTERNS.voice), which shows why a training failed. */
  voice: (id: string): string => `/dashboard/loras/${encodeURIComponent(id)}`,
} as const;
