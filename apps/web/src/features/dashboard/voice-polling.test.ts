import { VOICE_TIMINGS } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { shouldPollVoices, voiceListPollInterval } from './voice-polling';

const now = 100_000;

describe('shouldPollVoices', () => {
  it('polls while a Voice is moving or awake', () => {
    for (const status of ['training', 'pending', 'activating', 'deactivating', 'active'] as const) {
      expect(shouldPollVoices({ visible: true, statuses: ['ready', status], lastChangeAt: null, now })).toBe(true);
    }
  });

  it('stops when every Voice is at rest and nothing changed lately', () => {
    expect(shouldPollVoices({ visible: true, statuses: ['ready', 'failed'], lastChangeAt: null, now })).toBe(false);
    expect(shouldPollVoices({ visible: true, statuses: [], lastChangeAt: null, now })).toBe(false);
  });

  it('keeps polling for 10 s after a change', () => {
    const window = VOICE_TIMINGS.recentChangeMs;
    expect(shouldPollVoices({ visible: true, statuses: ['ready'], lastChangeAt: now - window + 1, now })).toBe(true);
    expect(shouldPollVoices({ visible: true, statuses: ['ready'], lastChangeAt: now - window, now })).toBe(false);
  });

  it('never polls a hidden page', () => {
    expect(shouldPollVoices({ visible: false, statuses: ['training'], lastChangeAt: now, now })).toBe(false);
  });

  it('gives the 10 s interval or none', () => {
    expect(voiceListPollInterval({ visible: true, statuses: ['active'], lastChangeAt: null, now })).toBe(
      VOICE_TIMINGS.dashboardPollMs,
    );
    expect(voiceListPollInterval({ visible: true, statuses: ['ready'], lastChangeAt: null, now })).toBe(false);
  });
});
