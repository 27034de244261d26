// What the invitation page offers, decided from the invitation and who is signed in; and how a
// failed load or acceptance reads.
import type { InvitationInfo, User } from '@ownvoice/shared';
import { errorMessage, isApiError } from '../../lib/api-error';

/**
 * sign-up: nobody has the address yet, so the page creates the account. accept: the invited
 * account is signed in. sign-in: the account exists but is not signed in here. wrong-account:
 * someone else is signed in.
 */
export type InvitationStep = 'sign-up' | 'accept' | 'sign-in' | 'wrong-account';

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export function invitationStep(
  invitation: Pick<InvitationInfo, 'email' | 'accountExists'>,
  user: Pick<User, 'email'> | null,
): InvitationStep {
  if (!invitation.accountExists) return 'sign-up';
  if (!user) return 'sign-in';
  return sameAddress(user.email, invitation.email) ? 'accept' : 'wrong-account';
}

export const INVITATION_MESSAGES = {
  used: 'This invitation has expired or has already been used. Ask an admin for a new invitation.',
  unknown: 'This invitation link is not valid. Ask an admin for a new invitation.',
  loadFailed: 'Failed to load the invitation',
  acceptFailed: 'Failed to accept the invitation',
} as const;

/** An invitation that can no longer be accepted (used, expired or never issued), or null for other failures. */
export function unusableInvitationMessage(error: unknown): string | null {
  if (!isApiError(error)) return null;
  if (error.status === 410 || error.code === 'INVITATION_INVALID') return INVITATION_MESSAGES.used;
  if (error.status === 404 || error.code === 'NOT_FOUND') return INVITATION_MESSAGES.unknown;
  return null;
}

export const acceptErrorMessage = (error: unknown): string => errorMessage(error, INVITATION_MESSAGES.acceptFailed);
