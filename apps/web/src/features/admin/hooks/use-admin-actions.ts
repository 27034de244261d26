// The console's nine sensitive actions, each with its wording; all go through useMfaAction.
import type {
  AdminDisputeRehearsalBody,
  AdminPayment,
  AdminRefundBody,
  GrantCreditsBody,
  InviteBody,
  InviteResponse,
  LimitsBody,
  Reconciliation,
  Role,
  User,
} from '@ownvoice/shared';
import {
  changeUserRole,
  deleteUser,
  grantCredits,
  inviteAdmin,
  reconcileBilling,
  refundPayment,
  rehearseDispute,
  revokeInvitation,
  updateLimits,
} from '../api';
import { useMfaAction } from './use-mfa-action';

export const ADMIN_ACTION_MESSAGES = {
  roleFailed: 'Failed to update role',
  roleDone: 'User role updated successfully',
  grantFailed: 'Failed to grant credits',
  grantDone: 'Credits granted successfully',
  deleteFailed: 'Failed to delete user',
  deleteDone: 'User deleted successfully',
  inviteFailed: 'Failed to invite admin',
  revokeFailed: 'Failed to revoke the invitation',
  revokeDone: 'Invitation revoked: its link no longer works',
  limitsFailed: 'Failed to update limits',
  limitsDone: 'Limits updated',
  refundFailed: 'Failed to refund the payment',
  refundDone: 'Payment refunded',
  rehearseFailed: 'Failed to rehearse the dispute',
  rehearseDone: 'Dispute step rehearsed',
  reconcileFailed: 'Failed to reconcile billing',
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

export const useRevokeInvitation = (invitationId: string) =>
  useMfaAction<void, string>({
    run: (_vars, mfaToken) => revokeInvitation(invitationId, mfaToken),
    successMessage: ADMIN_ACTION_MESSAGES.revokeDone,
    failureMessage: ADMIN_ACTION_MESSAGES.revokeFailed,
  });

export const useRefundPayment = (userId: string, paymentId: string, onDone: () => void) =>
  useMfaAction<AdminRefundBody, AdminPayment>({
    run: (body, mfaToken) => refundPayment(userId, paymentId, body, mfaToken),
    successMessage: ADMIN_ACTION_MESSAGES.refundDone,
    failureMessage: ADMIN_ACTION_MESSAGES.refundFailed,
    errorDisplay: 'inline',
    onDone,
  });

/** A step of a dispute on the offline provider; the payments list then shows where it stands. */
export const useRehearseDispute = (userId: string) =>
  useMfaAction<AdminDisputeRehearsalBody & { paymentId: string }, AdminPayment>({
    run: ({ paymentId, ...body }, mfaToken) => rehearseDispute(userId, paymentId, body, mfaToken),
    successMessage: ADMIN_ACTION_MESSAGES.rehearseDone,
    failureMessage: ADMIN_ACTION_MESSAGES.rehearseFailed,
  });

/** The result is shown on the billing card itself, so no toast. */
export const useReconcileBilling = (onDone: (run: Reconciliation) => void) =>
  useMfaAction<void, Reconciliation>({
    run: (_vars, mfaToken) => reconcileBilling(mfaToken),
    failureMessage: ADMIN_ACTION_MESSAGES.reconcileFailed,
    errorDisplay: 'inline',
    onDone,
  });
