// An address that is not confirmed yet: what a page says about it, and how a failed "Send again"
// reads. Using the product needs no confirmed address; the trial and an admin invitation do.
import { EMAIL_MESSAGES, type User } from '@ownvoice/shared';
import { errorMessage, isApiError } from '../api-error';

export const RESEND_MESSAGES = {
  failed: 'Could not send the link. Please try again in a moment.',
  tooMany: 'Too many links asked for in a short time. Please wait a while and try again.',
} as const;

/** The server refused because the address is not confirmed (starting a trial, accepting an invitation). */
export const isEmailNotVerified = (error: unknown): boolean => isApiError(error) && error.code === 'EMAIL_NOT_VERIFIED';

export interface ResendFailure {
  message: string;
  /** Re-read the user: the server says there is nothing to confirm (done meanwhile, perhaps in another tab). */
  reread: boolean;
}

export function resendFailure(error: unknown): ResendFailure {
  if (!isApiError(error)) return { message: RESEND_MESSAGES.failed, reread: false };
  if (error.status === 429 || error.code === 'RATE_LIMITED') {
    return { message: errorMessage(error, RESEND_MESSAGES.tooMany), reread: false };
  }
  return { message: errorMessage(error, RESEND_MESSAGES.failed), reread: error.status === 400 };
}

/**
 * What a page that needs a confirmed address says before its button: the server's own words when
 * it refused already, else the shared line while the signed-in address is unconfirmed, else null.
 */
export function confirmationNotice(
  user: Pick<User, 'email' | 'emailVerified'> | null,
  serverMessage: string | null,
): string | null {
  if (serverMessage) return serverMessage;
  if (user && !user.emailVerified) return EMAIL_MESSAGES.notVerified(user.email);
  return null;
}
