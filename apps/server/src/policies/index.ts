// Who may do what, in one place. Services ask here; they never compare owners or roles inline.
import {
  type BaseModelFit,
  isAdminRole,
  mayUseConvertAndCreate,
  type OnboardingStep,
  type PlanName,
  ROLE_RANK,
  type Role,
} from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import { errors } from '../errors.js';

/** A model file's name without .gguf: what a Voice's PEFT export calls its base model. */
const fileStem = (file: string): string => file.replace(/\.gguf$/i, '');

export const voicePolicy = {
  /** Your own Voices, and anyone's public ones. Anything else is, to you, not there (404). */
  canView: (user: UserRow, voice: VoiceRow): boolean => voice.userId === user.id || voice.isPublic,
  /** Rename, delete, publish, wake and sleep: the owner alone. */
  canManage: (user: UserRow, voice: VoiceRow): boolean => voice.userId === user.id,
  /** Anyone who can see a Voice can fork it, once it is trained. */
  canFork: (user: UserRow, voice: VoiceRow): boolean =>
    voicePolicy.canView(user, voice) && (voice.status === 'ready' || voice.status === 'active'),
  /**
   * Downloading the Voice's package (the adapter itself): the owner, of a Voice they trained or
   * imported. A fork's adapter is its author's, shared to use in OwnVoice, not to take away.
   */
  canDownload: (user: Pick<UserRow, 'id'>, voice: Pick<VoiceRow, 'userId' | 'forkedFromId'>): boolean =>
    voice.userId === user.id && !voice.forkedFromId,
  /** Evaluation samples quote the training writing: the owner's alone, never shown to others or copied into forks. */
  canSeeTrainingText: (user: Pick<UserRow, 'id'>, voice: Pick<VoiceRow, 'userId'>): boolean => voice.userId === user.id,
  /** Publishing is allowed only for a finished Voice (ready or active); unpublishing always. */
  canChangeVisibility: (voice: VoiceRow, makePublic: boolean): boolean =>
    !makePublic || voice.status === 'ready' || voice.status === 'active',
  /**
   * Whether the base model this server runs is the Voice's (decision 31): `same` when it is the
   * model the Voice recorded, by the SHA-256 of its file; `other` when it is another, or when a
   * Voice whose base was not recorded has files that name another model file; `unknown` when
   * nothing says (or this server's model is not known yet). A Voice wakes unless it is `other`.
   */
  baseModelFit: (
    voice: Pick<VoiceRow, 'baseModelState' | 'baseModelFile' | 'baseModelSha256'>,
    server: { file: string; sha256: string } | undefined,
  ): BaseModelFit => {
    if (!server) return 'unknown';
    if (voice.baseModelState === 'recorded' && voice.baseModelSha256) {
      return voice.baseModelSha256 === server.sha256 ? 'same' : 'other';
    }
    if (voice.baseModelFile) return fileStem(voice.baseModelFile) === fileStem(server.file) ? 'unknown' : 'other';
    return 'unknown';
  },
} as const;

export const adminPolicy = {
  /**
   * The admin routes answer admins and super admins, and only once they have two-factor on: an
   * admin's stolen password alone must not open other people's accounts.
   */
  access: (user: Pick<UserRow, 'role' | 'mfaEnabled'>): 'ok' | 'not_admin' | 'needs_mfa' => {
    if (!isAdminRole(user.role)) return 'not_admin';
    return user.mfaEnabled ? 'ok' : 'needs_mfa';
  },

  /**
   * Why `actor` may not act on `target` (change their role, delete them, grant them credits,
   * edit their limits, refund their payments), or null when they may. Nobody acts on themself:
   * an admin granting themself usage or a plan, promoting, demoting or deleting themself, or
   * refunding their own payment goes through another admin. Admins leave super admins alone and
   * cannot make one; super admins are never deleted; the last one is never demoted.
   */
  refusalToActOn: (
    actor: Pick<UserRow, 'id' | 'role'>,
    target: Pick<UserRow, 'id' | 'role'>,
    change: { kind: 'delete' | 'grant' | 'limits' | 'refund' | 'dispute' } | { kind: 'role'; role: Role },
    superAdmins: number,
  ): string | null => {
    if (actor.id === target.id) return 'You cannot change your own account from the admin console: ask another admin.';
    if (actor.role !== 'super_admin' && target.role === 'super_admin') {
      return 'Only a super admin can change a super admin.';
    }
    if (change.kind === 'role' && change.role === 'super_admin' && actor.role !== 'super_admin') {
      return 'Only a super admin can make someone a super admin.';
    }
    if (change.kind === 'grant' || change.kind === 'limits' || change.kind === 'refund' || change.kind === 'dispute') {
      return null;
    }
    if (change.kind === 'delete' && target.role === 'super_admin') return 'A super admin cannot be deleted.';
    // Past the line above, anything but a role change is a deletion.
    const demotes = change.kind !== 'role' || ROLE_RANK[change.role] < ROLE_RANK[target.role];
    if (demotes && target.role === 'super_admin' && superAdmins <= 1) {
      return 'This is the last super admin: make another super admin first.';
    }
    return null;
  },

  /**
   * An invitation stands while the admin who sent it could still send it: it dies when they are
   * deleted, lose their admin rights, or (for a super admin invitation) stop being a super admin.
   */
  invitationStands: (inviter: Pick<UserRow, 'role'> | undefined, role: Role): boolean =>
    inviter !== undefined && isAdminRole(inviter.role) && adminPolicy.refusalToInvite(inviter, role) === null,

  /** Only a super admin may invite a super admin; any admin may invite an admin. */
  refusalToInvite: (actor: Pick<UserRow, 'role'>, role: Role): string | null =>
    role === 'super_admin' && actor.role !== 'super_admin' ? 'Only a super admin can invite a super admin.' : null,
} as const;

export const writingPolicy = {
  /** Convert and Create open once onboarding reaches training_started (or on a paid plan), as the web's navigation does. */
  mayConvertAndCreate: (user: Pick<UserRow, 'onboardingStep' | 'planName'>): boolean =>
    mayUseConvertAndCreate(user.onboardingStep as OnboardingStep, user.planName as PlanName),
} as const;

/** The guard of the Convert and Create routes: a 403 that says what unlocks them. */
export function requireConvertAndCreate(user: Pick<UserRow, 'onboardingStep' | 'planName'>): void {
  if (!writingPolicy.mayConvertAndCreate(user)) {
    throw errors.forbidden('Create your first Voice (or skip that step) to unlock Convert and Create.');
  }
}
