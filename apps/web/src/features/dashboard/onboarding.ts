// Onboarding on the dashboard: the tour at training_started, which the person steps through with
// Next and Back, and at rephrasing_tour_complete the same panels following the latest Voice
// (training, ready, activating, active); Convert on a card then moves the step to
// activation_tour_complete. Either way the panels start at the latest Voice's state: a Voice that
// is ready (a fork is, from the start) is never told it is training. Choices:
// docs/decisions/0014-tours.md, 0040-pages-that-say-what-is-so.md.
import type { OnboardingStep, Voice, VoiceStatus } from '@ownvoice/shared';
import { PATHS } from '../../lib/paths';

export type DashboardTourMode = 'tour' | 'follow';

export const dashboardTourMode = (step: OnboardingStep): DashboardTourMode | null => {
  if (step === 'training_started') return 'tour';
  if (step === 'rephrasing_tour_complete') return 'follow';
  return null;
};

/** The Voice the tour is about: the newest one. */
export function latestVoice(voices: readonly Voice[]): Voice | null {
  let latest: Voice | null = null;
  for (const voice of voices) {
    if (latest === null || Date.parse(voice.createdAt) > Date.parse(latest.createdAt)) latest = voice;
  }
  return latest;
}

// A Voice going to sleep is shown the "wake it" panel: that is what it needs next. A failed
// Voice has no panel: its card says what went wrong.
const FOLLOW_INDEX: Record<VoiceStatus, number | null> = {
  pending: 0,
  training: 0,
  ready: 1,
  deactivating: 1,
  activating: 2,
  active: 3,
  failed: null,
};

/** The panel (0-based) that follows a Voice in this status, or null for none. */
export const followIndex = (status: VoiceStatus): number | null => FOLLOW_INDEX[status];

/**
 * The panels for the latest Voice: from the one about its status on, none about a state it has
 * left or never went through; null for a failed Voice, whose card says what went wrong.
 */
export function dashboardTourPanels(status: VoiceStatus): readonly DashboardTourStep[] | null {
  const from = followIndex(status);
  return from === null ? null : DASHBOARD_TOUR_STEPS.slice(from);
}

/** Pressing Convert on a card finishes the activation tour from here. */
export const convertPressAdvances = (step: OnboardingStep): boolean => step === 'rephrasing_tour_complete';

export interface DashboardTourStep {
  title: string;
  body: string;
  /** What the panel points at: the latest Voice's card, its Convert button, or nothing. */
  target: 'card' | 'convert' | null;
}

export const DASHBOARD_TOUR_STEPS: readonly DashboardTourStep[] = [
  {
    title: 'Your Voice is training',
    body: 'Its card shows how far along it is and about how long is left; See Progress shows more, with a round of Rota while you wait. Meanwhile, the Create tour shows you what your Voice will write.',
    target: 'card',
  },
  {
    title: 'Wake it up',
    body: 'A trained Voice sleeps until you need it. Press Wake Up on its card: an awake Voice can convert and create, and you can put it to sleep again when you are done.',
    target: 'card',
  },
  {
    title: 'Waking up',
    body: 'Waking usually takes a minute or two, sometimes 5 to 10. The card changes to awake on its own.',
    target: 'card',
  },
  {
    title: 'Convert with it',
    body: 'Once your Voice is awake, press Convert on its card to rewrite any text in your style.',
    target: 'convert',
  },
];

// Voice ids are 24 hexadecimal characters: nothing in them needs escaping in a selector.
const cardSelector = (voiceId: string) => `[data-testid="voice-card"][data-voice-id="${voiceId}"]`;

/**
 * The CSS selector a panel points at, for the latest Voice (the empty state before one); the
 * Convert button exists only on an awake Voice, so before that the panel points at the card.
 */
export function dashboardTourTarget(
  target: DashboardTourStep['target'],
  voice: Pick<Voice, '_id' | 'status'> | null,
): string | undefined {
  if (target === null) return undefined;
  if (voice === null) return '[data-testid="voices-empty"]';
  const card = cardSelector(voice._id);
  return target === 'convert' && voice.status === 'active' ? `${card} a[href^="${PATHS.convert}"]` : card;
}
