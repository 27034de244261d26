// When the dashboard refetches the Voice list: every 10 s while the page is
// visible and something is moving (training, waking, awake, ...) or the user changed something in
// the last 10 s.
import { MOVING_VOICE_STATUSES, VOICE_TIMINGS, type VoiceStatus } from '@ownvoice/shared';

export interface PollInput {
  visible: boolean;
  /** The statuses as shown, optimistic ones included. */
  statuses: readonly VoiceStatus[];
  /** When the user last changed a Voice; null when not during this visit. */
  lastChangeAt: number | null;
  now: number;
}

export function shouldPollVoices({ visible, statuses, lastChangeAt, now }: PollInput): boolean {
  if (!visible) return false;
  if (statuses.some((status) => MOVING_VOICE_STATUSES.includes(status))) return true;
  return lastChangeAt !== null && now - lastChangeAt < VOICE_TIMINGS.recentChangeMs;
}

/** TanStack Query's refetchInterval for the list. */
export const voiceListPollInterval = (input: PollInput): number | false =>
  shouldPollVoices(input) ? VOICE_TIMINGS.dashboardPollMs : false;
