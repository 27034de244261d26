// Who may do what, in one place. Services ask here; they never compare owners or roles inline.
import { isAdminRole, mayUseConvertAndCreate, type OnboardingStep, type PlanName } from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import { errors } from '../errors.js';

export const voicePolicy = {
  /** Your own Voices, and anyone's public ones. Anything else is, to you, not there (404). */
  canView: (user: UserRow, voice: VoiceRow): boolean => voice.userId === user.id || voice.isPublic,
  /** Rename, delete, publish, wake and sleep: the owner alone. */
  canManage: (user: UserRow, voice: VoiceRow): boolean => voice.userId === user.id,
  /** Anyone who can see a Voice can fork it, once it is trained. */
  canFork: (user: UserRow, voice: VoiceRow): boolean =>
    voicePolicy.canView(user, voice) && (voice.status === 'ready' || voice.status === 'active'),
  /** Evaluation samples quote the training writing: the owner's alone, never shown to others or copied into forks. */
  canSeeTrainingText: (user: Pick<UserRow, 'id'>, voice: Pick<VoiceRow, 'userId'>): boolean => voice.userId === user.id,
  /** Publishing is allowed only for a finished Voice (ready or active); unpublishing always. */
  canChangeVisibility: (voice: VoiceRow, makePublic: boolean): boolean =>
    !makePublic || voice.status === 'ready' || voice.status === 'active',
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
