// The training page's reading of a Voice: whether it is still training, how often to
// ask again, and what its browser tab says.
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

/** The training progress as a whole percent, kept within 0..100. */
export const progressPercent = (progress: number): number =>
  Number.isFinite(progress) ? Math.round(Math.min(100, Math.max(0, progress))) : 0;

/**
 * The browser tab's title (the page adds the product's name): the percent while it trains, and
 * that the Voice is ready once it is, so a person in another tab sees it finish.
 */
export function trainingDocumentTitle(voice: Pick<Voice, 'name' | 'status' | 'progress'> | undefined): string {
  if (!voice) return 'Training progress';
  if (voice.status === 'failed') return `Training failed: ${voice.name}`;
  if (isTrainingStatus(voice.status)) return `${progressPercent(voice.progress)}% · Training ${voice.name}`;
  return `✓ ${voice.name} is ready`;
}
