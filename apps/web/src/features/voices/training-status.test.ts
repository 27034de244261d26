import { VOICE_TIMINGS } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { testVoice } from '../../lib/test-voice';
import { progressPercent, trainingDocumentTitle, trainingPollInterval } from './training-status';

describe('trainingPollInterval', () => {
  it('asks every 5 s while the Voice trains or waits, and before the first answer', () => {
    expect(trainingPollInterval(undefined, null)).toBe(VOICE_TIMINGS.trainingPollMs);
    expect(trainingPollInterval(testVoice({ status: 'training' }), null)).toBe(VOICE_TIMINGS.trainingPollMs);
    expect(trainingPollInterval(testVoice({ status: 'pending' }), null)).toBe(VOICE_TIMINGS.trainingPollMs);
  });

  it('stops once training ended', () => {
    expect(trainingPollInterval(testVoice({ status: 'ready' }), null)).toBe(false);
    expect(trainingPollInterval(testVoice({ status: 'failed' }), null)).toBe(false);
  });

  it('stops on a refusal but keeps trying through a network or server failure', () => {
    expect(trainingPollInterval(undefined, new ApiError({ status: 404, msg: 'Voice not found' }))).toBe(false);
    expect(trainingPollInterval(undefined, new ApiError({ status: 502, msg: 'Bad gateway' }))).toBe(
      VOICE_TIMINGS.trainingPollMs,
    );
    expect(trainingPollInterval(undefined, new TypeError('Failed to fetch'))).toBe(VOICE_TIMINGS.trainingPollMs);
  });
});

describe('trainingDocumentTitle', () => {
  it('follows the percent while it trains and says when the Voice is ready', () => {
    expect(trainingDocumentTitle(undefined)).toBe('Training progress');
    expect(trainingDocumentTitle(testVoice({ name: 'Jargon', status: 'pending', progress: 0 }))).toBe(
      '0% · Training Jargon',
    );
    expect(trainingDocumentTitle(testVoice({ name: 'Jargon', status: 'training', progress: 41.6 }))).toBe(
      '42% · Training Jargon',
    );
    expect(trainingDocumentTitle(testVoice({ name: 'Jargon', status: 'ready', progress: 100 }))).toBe(
      '✓ Jargon is ready',
    );
    expect(trainingDocumentTitle(testVoice({ name: 'Jargon', status: 'active' }))).toBe('✓ Jargon is ready');
    expect(trainingDocumentTitle(testVoice({ name: 'Jargon', status: 'failed' }))).toBe('Training failed: Jargon');
  });
});

describe('progressPercent', () => {
  it('rounds and clamps', () => {
    expect(progressPercent(41.6)).toBe(42);
    expect(progressPercent(130)).toBe(100);
    expect(progressPercent(-2)).toBe(0);
    expect(progressPercent(Number.NaN)).toBe(0);
  });
});
