// The training page's reading of a Voice: whether it is still training, how often to
// ask again, what its browser tab and its headings say.
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

/**
 * The training page's heading and its game's: words about waiting only while there is something
 * to wait for. Once training ends the game stays (a round under way is not lost) without them.
 */
export function trainingPageHeadings(voice: Pick<Voice, 'status'> | undefined): { page: string; game: string } {
  if (!voice || isTrainingStatus(voice.status)) return { page: 'Training progress', game: 'While you wait: Rota' };
  return { page: voice.status === 'failed' ? 'Training failed' : 'Training done', game: 'A round of Rota' };
}
