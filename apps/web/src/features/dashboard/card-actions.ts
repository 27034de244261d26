// Which buttons a Voice card offers.
import { canPublishStatus, type Voice, type VoiceStatus } from '@ownvoice/shared';

export type CardAction = 'wake' | 'sleep' | 'convert' | 'progress';

const ACTIONS_BY_STATUS: Record<VoiceStatus, readonly CardAction[]> = {
  ready: ['wake'],
  active: ['sleep', 'convert'],
  training: ['progress'],
  pending: ['progress'],
  activating: [],
  deactivating: [],
  failed: [],
};

export const cardActions = (status: VoiceStatus): readonly CardAction[] => ACTIONS_BY_STATUS[status];

/** Make Public needs a working Voice; a public one may always be made private again. */
export const mayToggleVisibility = (voice: Pick<Voice, 'status' | 'isPublic'>): boolean =>
  voice.isPublic || canPublishStatus(voice.status);
