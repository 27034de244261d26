// How a training's time left and its end read, wherever a training Voice is shown (its training
// page and its dashboard card). The estimate is the server's, from the run's own measured pace.
import { VOICE_STAGE_LABELS, type Voice } from '@ownvoice/shared';

/**
 * How long a training takes, wherever a page says so before one starts. Measured (decision 25):
 * about 1.5 minutes for a whole Voice on one data-centre GPU; on two processor cores about a
 * quarter of an hour for 40,000 characters and up to a few hours for 200,000. So no one figure is
 * true: the range, and the progress page's own estimate once a run is under way.
 */
export const TRAINING_TIME_STATEMENT =
  'Training takes a few minutes on a GPU and from about a quarter of an hour to a few hours on an ordinary processor, depending on how much you upload; its progress page shows the time left.';

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/**
 * "About 3 minutes left" from seconds left; seconds (in fives) under a minute; "Almost done…"
 * once the estimate has passed; null without an estimate.
 */
export function formatTimeLeft(seconds: number | null | undefined): string | null {
  if (seconds === null || seconds === undefined || !Number.isFinite(seconds)) return null;
  if (seconds <= 0) return 'Almost done…';
  if (seconds < 60) return `About ${plural(Math.max(5, Math.ceil(seconds / 5) * 5), 'second')} left`;
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `About ${plural(minutes, 'minute')} left`;
  const [hours, rest] = [Math.floor(minutes / 60), minutes % 60];
  return `About ${plural(hours, 'hour')}${rest ? ` ${plural(rest, 'minute')}` : ''} left`;
}

/** The time-left line of a training Voice; null for one that waits for a trainer or is not training. */
export function timeLeftText(voice: Pick<Voice, 'status' | 'etaSeconds'>): string | null {
  if (voice.status !== 'training') return null;
  return formatTimeLeft(voice.etaSeconds) ?? 'Estimating the time left…';
}

/** What the stage under way is doing, in words. */
export const stageText = (voice: Pick<Voice, 'status' | 'stage'>): string | null =>
  voice.stage ? VOICE_STAGE_LABELS[voice.stage] : voice.status === 'pending' ? 'Waiting to start' : null;
