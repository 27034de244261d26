import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { INVITATION_MESSAGES, invitationStep, unusableInvitationMessage } from './invitation-view';

const invitation = (accountExists: boolean) => ({ email: 'new.admin@example.com', accountExists });

describe('the invitation page', () => {
  it('signs a new address up, whoever is signed in', () => {
    expect(invitationStep(invitation(false), null)).toBe('sign-up');
    expect(invitationStep(invitation(false), { email: 'someone@example.com' })).toBe('sign-up');
  });

  it('lets the invited account accept, and asks anyone else to sign in as it', () => {
    expect(invitationStep(invitation(true), { email: 'New.Admin@example.com' })).toBe('accept');
    expect(invitationStep(invitation(true), null)).toBe('sign-in');
    expect(invitationStep(invitation(true), { email: 'someone@example.com' })).toBe('wrong-account');
  });

  it('says to ask for a new invitation when it is used, expired or unknown', () => {
    const used = new ApiError({ status: 410, code: 'INVITATION_INVALID', msg: 'Invitation expired' });
    const unknown = new ApiError({ status: 404, code: 'NOT_FOUND', msg: 'Not found' });
    expect(unusableInvitationMessage(used)).toBe(INVITATION_MESSAGES.used);
    expect(unusableInvitationMessage(unknown)).toBe(INVITATION_MESSAGES.unknown);
    expect(INVITATION_MESSAGES.used).toContain('Ask an admin for a new invitation');
  });

  it('leaves other failures to their own message', () => {
    expect(
      unusableInvitationMessage(new ApiError({ status: 403, code: 'FORBIDDEN', msg: 'Sign in first' })),
    ).toBeNull();
    expect(unusableInvitationMessage(new TypeError('Failed to fetch'))).toBeNull();
  });
});
