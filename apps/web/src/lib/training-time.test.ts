import { describe, expect, it } from 'vitest';
import { testVoice } from './test-voice';
import { formatTimeLeft, stageText, timeLeftText } from './training-time';

describe('formatTimeLeft', () => {
  it('reads as minutes left, in seconds under a minute', () => {
    expect(formatTimeLeft(180)).toBe('About 3 minutes left');
    expect(formatTimeLeft(150)).toBe('About 3 minutes left');
    expect(formatTimeLeft(89)).toBe('About 1 minute left');
    expect(formatTimeLeft(60)).toBe('About 1 minute left');
    expect(formatTimeLeft(42)).toBe('About 45 seconds left');
    expect(formatTimeLeft(1)).toBe('About 5 seconds left');
    expect(formatTimeLeft(3600)).toBe('About 1 hour left');
    expect(formatTimeLeft(5400)).toBe('About 1 hour 30 minutes left');
    expect(formatTimeLeft(7260)).toBe('About 2 hours 1 minute left');
  });

  it('says the end is near once the estimate has passed, and nothing without one', () => {
    expect(formatTimeLeft(0)).toBe('Almost done…');
    expect(formatTimeLeft(null)).toBeNull();
    expect(formatTimeLeft(undefined)).toBeNull();
    expect(formatTimeLeft(Number.NaN)).toBeNull();
  });
});

describe('timeLeftText', () => {
  it('says it is estimating until the server has an estimate, and nothing before training starts', () => {
    expect(timeLeftText(testVoice({ status: 'training', etaSeconds: 200 }))).toBe('About 3 minutes left');
    expect(timeLeftText(testVoice({ status: 'training', etaSeconds: null }))).toBe('Estimating the time left…');
    expect(timeLeftText(testVoice({ status: 'training', etaSeconds: undefined }))).toBe('Estimating the time left…');
    expect(timeLeftText(testVoice({ status: 'pending' }))).toBeNull();
    expect(timeLeftText(testVoice({ status: 'ready', etaSeconds: 30 }))).toBeNull();
  });
});

describe('stageText', () => {
  it('names the stage in words, or that it waits to start', () => {
    expect(stageText(testVoice({ status: 'training', stage: 'train' }))).toBe('Learning your style');
    expect(stageText(testVoice({ status: 'pending', stage: null }))).toBe('Waiting to start');
    expect(stageText(testVoice({ status: 'training', stage: null }))).toBeNull();
  });
});
