// Whether the signed-in layout shows the slim "Confirm your address" notice: only for an
// unconfirmed address, not where the page says it itself (the account page, the confirmation
// link's page, the trial and an invitation), and not once closed in this browser session.
import type { User } from '@ownvoice/shared';
import type { SessionStore } from '../../lib/billing/session-store';
import { PATHS } from '../../lib/paths';

/** Pages that speak of the unconfirmed address themselves. */
const OWN_NOTICE_PATHS: readonly string[] = [PATHS.account, PATHS.verifyEmail, PATHS.onboardingPayLater];
const INVITATION_PREFIX = '/invite/';

export const emailNoticeKey = (userId: string): string => `ownvoice.email-notice.${userId}`;

export function isEmailNoticeClosed(store: SessionStore | null, userId: string): boolean {
  try {
    return store?.getItem(emailNoticeKey(userId)) === 'closed';
  } catch {
    return false;
  }
}

export function closeEmailNotice(store: SessionStore | null, userId: string): void {
  try {
    store?.setItem(emailNoticeKey(userId), 'closed');
  } catch (error) {
    console.warn('Could not remember the closed address notice', error);
  }
}

export function showsEmailNotice(user: Pick<User, 'emailVerified'> | null, pathname: string, closed: boolean): boolean {
  if (!user || user.emailVerified || closed) return false;
  const path = pathname.replace(/\/+$/, '') || '/';
  return !OWN_NOTICE_PATHS.includes(path) && !path.startsWith(INVITATION_PREFIX);
}
