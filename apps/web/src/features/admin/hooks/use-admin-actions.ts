// The console's five sensitive actions, each with its wording; all go through useMfaAction.
import type { GrantCreditsBody, InviteBody, InviteResponse, LimitsBody, Role, User } from '@ownvoice/shared';
import { changeUserRole, deleteUser, grantCredits, inviteAdmin, updateLimits } from '../api';
import { useMfaAction } from './use-mfa-action';

export const ADMIN_ACTION_MESSAGES = {
  roleFailed: 'Failed to update role',
  roleDone: 'User role updated successfully',
  grantFailed: 'Failed to grant credits',
  grantDone: 'Credits granted successfully',
  deleteFailed: 'Failed to delete user',
  deleteDone: 'User deleted successfully',
  inviteFailed: 'Failed to invite admin',
  limitsFailed: 'Failed to update limits',
  limitsDone: 'Limits updated',
} as const;

export const useChangeRole = (userId: string) =>
  useMfaAction<Role, User>({
    run: (role, mfaToken) => changeUserRole(userId, role, mfaToken),
    successMessage: ADMIN_ACTION_MESSAGES.roleDone,
    failureMessage: ADMIN_ACTION_MESSAGES.roleFailed,
  });

export const useDeleteUser = (userId: string) =>
  useMfaAction<void, string>({
    run: (_vars, mfaToken) => deleteUser(userId, mfaToken),
    successMessage: ADMIN_ACTION_MESSAGES.deleteDone,
    failureMessage: ADMIN_ACTION_MESSAGES.deleteFailed,
  });

export const useGrantCredits = (onDone: () => void) =>
  useMfaAction<GrantCreditsBody, User>({
    run: grantCredits,
    successMessage: ADMIN_ACTION_MESSAGES.grantDone,
    failureMessage: ADMIN_ACTION_MESSAGES.grantFailed,
    errorDisplay: 'inline',
    onDone,
  });

export const useUpdateLimits = (userId: string, onDone: () => void) =>
  useMfaAction<LimitsBody, User>({
    run: (body, mfaToken) => updateLimits(userId, body, mfaToken),
    successMessage: ADMIN_ACTION_MESSAGES.limitsDone,
    failureMessage: ADMIN_ACTION_MESSAGES.limitsFailed,
    errorDisplay: 'inline',
    onDone,
  });

/** The invitation link is shown by the form itself (with a copy button), not in a toast. */
export const useInviteAdmin = (onDone: (invitation: InviteResponse['data']) => void) =>
  useMfaAction<InviteBody, InviteResponse['data']>({
    run: inviteAdmin,
    failureMessage: ADMIN_ACTION_MESSAGES.inviteFailed,
    errorDisplay: 'inline',
    onDone,
  });
