import { describe, expect, it } from 'vitest';
import { selectedVoiceId } from './voice-choice';

const voice = (id: string) => ({ _id: id });

describe('selectedVoiceId', () => {
  it('keeps the chosen Voice while it is awake', () => {
    expect(selectedVoiceId('b', [voice('a'), voice('b')])).toBe('b');
  });

  it('drops a choice that is not among the awake Voices', () => {
    expect(selectedVoiceId('gone', [voice('a'), voice('b')])).toBeNull();
  });

  it('falls back to the only awake Voice', () => {
    expect(selectedVoiceId(null, [voice('a')])).toBe('a');
    expect(selectedVoiceId('gone', [voice('a')])).toBe('a');
  });

  it('chooses nothing without a choice among several, or without awake Voices', () => {
    expect(selectedVoiceId(null, [voice('a'), voice('b')])).toBeNull();
    expect(selectedVoiceId('a', [])).toBeNull();
  });
});
