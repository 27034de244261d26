// The words notices are built from: why a training failed, said so its owner can act on it, and
// amounts of usage as people count them.
import { describe, expect, it } from 'vitest';
import { listInWords, shownAmountsInWords, storedAmountsInWords, trainingFailureInWords } from './notices.js';

describe('trainingFailureInWords', () => {
  it('says how much writing a Voice needs when there was too little', () => {
    expect(trainingFailureInWords('Not enough text to train a Voice: at least two passages are needed.')).toBe(
      'there was not enough of your writing to learn from. A Voice needs at least 20,000 characters of your own prose, in several paragraphs.',
    );
  });

  it('says an interrupted or unavailable trainer was not the writing’s fault', () => {
    expect(trainingFailureInWords('The training was interrupted too many times.')).toMatch(
      /^the trainer was interrupted too many times .* training it again usually works\.$/,
    );
    expect(trainingFailureInWords('No Python with PyTorch found (python3: not found). Install …')).toMatch(
      /^this server cannot train Voices at the moment/,
    );
  });

  it('keeps the trainer’s own words (paths, errors) out of anything else', () => {
    const words = trainingFailureInWords(
      "ENOENT: no such file or directory, open '/data/voices/abc/uploads/manifest.json'",
    );
    expect(words).toBe('something went wrong on our side while it trained, not with your writing.');
  });
});

describe('amounts in words', () => {
  it('counts each resource with its own noun, one or many', () => {
    expect(shownAmountsInWords({ modelsTrained: 1 })).toBe('1 Voice training');
    expect(shownAmountsInWords({ modelsTrained: 2, activationHours: 10, chunkEdits: 100 })).toBe(
      '2 Voice trainings, 10 waking hours and 100 proofreads',
    );
    expect(shownAmountsInWords({ storageSlots: 50, shortContent: 1 })).toBe(
      '50 Voice storage slots and 1 short content draft',
    );
  });

  it('reads stored waking time in minutes, as hours when whole', () => {
    expect(storedAmountsInWords({ activationHours: 600 })).toBe('10 waking hours');
    expect(storedAmountsInWords({ activationHours: 90 })).toBe('90 minutes of waking time');
    expect(storedAmountsInWords({ activationHours: 0, chunkEdits: 0 })).toBe('');
  });

  it('lists with commas and a last "and"', () => {
    expect(listInWords([])).toBe('');
    expect(listInWords(['a'])).toBe('a');
    expect(listInWords(['a', 'b', 'c'])).toBe('a, b and c');
  });
});
