// The training page's reading of a Voice: whether it is still training, how often to
// ask again, and how the time left reads.
import { VOICE_TIMINGS, type Voice, type VoiceStatus } from '@ownvoice/shared';
import { isApiError } from '../../lib/api-error';

export const isTrainingStatus = (status: VoiceStatus): boolean => status === 'training' || status === 'pending';

/**
 * Every 5 s until training ends; never for an answer that will not change (not found, not
 * yours). A network failure or a server error keeps asking.
 */
export function trainingPollInterval(voice: Voice | undefined, error: unknown): number | false {
  if (isApiError(error) && error.status >= 400 && error.status < 500) return false;
  if (voice && !isTrainingStatus(voice.status)) return false;
  return VOICE_TIMINGS.trainingPollMs;
}

/** "~3 min left" from the trainer's estimate; null when it has none. */
export function formatEta(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds) || seconds < 0) return null;
  if (seconds < 60) return 'Less than a minute left';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `~${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  return rest === 0 ? `~${hours} h left` : `~${hours} h ${rest} min left`;
}

/** The training progress as a whole percent, kept within 0..100. */
export const progressPercent = (progress: number): number =>
  Number.isFinite(progress) ? Math.round(Math.min(100, Math.max(0, progress))) : 0;
