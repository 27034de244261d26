// The classifier on the house corpus: the two house authors' reserved writing (which no model
// trains on) in passages of a Voice's size, and the neutral paragraphs, three classes whose
// styles differ as far as prose can. Held-out passages must go to their own writer; shuffled
// labels must fall to chance, which shows the cross-validation keeps each fold's passages out of
// its own features and fit.
import { describe, expect, it } from 'vitest';
import { authorWriting } from '../corpus/authors.js';
import { neutralParagraphs } from '../corpus/neutral.js';
import { seededRandom } from '../seeded-random.js';
import { splitPassages } from '../text/passages.js';
import { AuthorshipClassifier } from './authorship-classifier.js';

const passages = (text: string) => splitPassages(text, { maxChars: 700, minChars: 233 });
const KJV = passages(authorWriting('kjv'));
const JARGON = passages(authorWriting('jargon'));
const NEUTRAL = neutralParagraphs();
/** Training passages: the first 20 of each author, and the neutral paragraphs but the last 6. */
const TRAINING = { kjv: KJV.slice(0, 20), jargon: JARGON.slice(0, 20), neutral: NEUTRAL.slice(0, -6) };

describe('the authorship classifier', () => {
  const classifier = AuthorshipClassifier.train(TRAINING);

  it('reports its cross-validated accuracy first, with each passage counted once', () => {
    const cv = classifier.crossValidation;
    expect(cv.folds).toBe(5);
    expect(cv.passages).toBe(20 + 20 + TRAINING.neutral.length);
    const counted = Object.values(cv.confusion).flatMap((row) => Object.values(row));
    expect(counted.reduce((s, n) => s + n, 0)).toBe(cv.passages);
    expect(cv.accuracy).toBeGreaterThanOrEqual(0.9);
    expect(cv.confusion.kjv?.kjv).toBe(20);
  });

  it('attributes passages it never saw to their own writer, with probabilities that sum to one', () => {
    const unseen: [string, string[]][] = [
      ['kjv', KJV.slice(40, 50)],
      ['jargon', JARGON.slice(40, 50)],
      ['neutral', NEUTRAL.slice(-6)],
    ];
    for (const [writer, texts] of unseen) {
      const right = texts.filter((t) => classifier.attribute(t) === writer).length;
      expect(right / texts.length, writer).toBeGreaterThanOrEqual(writer === 'neutral' ? 4 / 6 : 0.9);
      for (const t of texts) {
        const p = classifier.probabilities(t);
        expect(Object.keys(p)).toEqual(['kjv', 'jargon', 'neutral']);
        expect(Object.values(p).reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
      }
    }
  });

  it('falls to chance when the labels say nothing: no fold sees its own passages', () => {
    const all = [...TRAINING.kjv, ...TRAINING.jargon, ...TRAINING.neutral];
    const rand = seededRandom(5);
    const shuffled: Record<string, string[]> = { a: [], b: [], c: [] };
    for (const text of all) (shuffled[['a', 'b', 'c'][Math.floor(rand() * 3)] as string] as string[]).push(text);
    expect(AuthorshipClassifier.train(shuffled).crossValidation.accuracy).toBeLessThan(0.6);
  });

  it('is the same on every run, and refuses a class with fewer than two passages', () => {
    const again = AuthorshipClassifier.train(TRAINING);
    expect(again.crossValidation).toEqual(classifier.crossValidation);
    expect(again.probabilities(KJV[45] as string)).toEqual(classifier.probabilities(KJV[45] as string));
    expect(() => AuthorshipClassifier.train({ kjv: KJV.slice(0, 5), neutral: NEUTRAL.slice(0, 1) })).toThrow(
      /neutral has 1 passages/,
    );
  });
});
