import { describe, expect, it } from 'vitest';
import { holdOut, PASSAGE_MAX_CHARS, PASSAGE_MIN_CHARS, splitPassages } from './passages.js';

// Sentences of varied length, numbered so every one is distinct.
const sentence = (i: number) =>
  `Sentence ${i} tells of ${'the long road and '.repeat(i % 4)}what the walker saw on day ${i}.`;
const paragraph = (from: number, count: number) =>
  Array.from({ length: count }, (_, k) => sentence(from + k)).join(' ');
const words = (s: string) => s.split(/\s+/).filter(Boolean);

describe('splitPassages', () => {
  it('keeps a short text as one passage', () => {
    expect(splitPassages('Just this.\n\nAnd that.')).toEqual(['Just this.\n\nAnd that.']);
    expect(splitPassages('   ')).toEqual([]);
  });

  it('packs whole paragraphs up to the maximum, splitting only between them', () => {
    const paragraphs = Array.from({ length: 12 }, (_, i) => paragraph(i * 10, 3));
    const text = paragraphs.join('\n\n');
    const passages = splitPassages(text);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.join('\n\n')).toBe(text);
    for (const p of passages) {
      expect(p.length).toBeLessThanOrEqual(PASSAGE_MAX_CHARS);
      expect(p.length).toBeGreaterThanOrEqual(PASSAGE_MIN_CHARS);
      expect(paragraphs).toContain(p.split('\n\n')[0]);
    }
  });

  it('splits an over-long paragraph at sentence ends into even pieces, leaving no scrap', () => {
    const long = paragraph(0, 22); // a little over 1,500 characters
    expect(long.length).toBeGreaterThan(PASSAGE_MAX_CHARS);
    expect(long.length).toBeLessThan(2 * PASSAGE_MAX_CHARS);
    const passages = splitPassages(long);
    expect(passages).toHaveLength(2);
    expect(passages.join(' ')).toBe(long);
    for (const p of passages) {
      expect(p).toMatch(/^Sentence \d+ .*\.$/s);
      expect(p.length).toBeGreaterThan(long.length / 3);
    }
  });

  it('cuts a single over-long sentence between words only', () => {
    const run = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ');
    const passages = splitPassages(run, { minChars: 100, maxChars: 500 });
    expect(passages.length).toBeGreaterThanOrEqual(6);
    expect(passages.flatMap(words)).toEqual(words(run));
    for (const p of passages) expect(p.length).toBeLessThanOrEqual(500);
  });

  it('joins a tiny last paragraph to its neighbour', () => {
    const text = `${paragraph(0, 8)}\n\n${paragraph(100, 8)}\n\nThe end.`;
    const passages = splitPassages(text);
    expect(passages.at(-1)?.endsWith('\n\nThe end.')).toBe(true);
    for (const p of passages) expect(p.length).toBeGreaterThanOrEqual(PASSAGE_MIN_CHARS);
  });

  it('honours the size options and is deterministic', () => {
    const text = Array.from({ length: 30 }, (_, i) => paragraph(i * 5, 2)).join('\n\n');
    const a = splitPassages(text, { minChars: 200, maxChars: 600 });
    expect(a).toEqual(splitPassages(text, { minChars: 200, maxChars: 600 }));
    for (const p of a) expect(p.length).toBeLessThanOrEqual(600);
    expect(() => splitPassages(text, { minChars: 700, maxChars: 600 })).toThrow(RangeError);
  });
});

describe('holdOut', () => {
  const items = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('holds nothing out of fewer than two passages, and one out of two', () => {
    expect(holdOut([], 0.1, 1)).toEqual({ train: [], heldOut: [] });
    expect(holdOut(['only'], 0.1, 1)).toEqual({ train: ['only'], heldOut: [] });
    const two = holdOut(['a', 'b'], 0.1, 1);
    expect(two.heldOut).toHaveLength(1);
    expect([...two.train, ...two.heldOut].sort()).toEqual(['a', 'b']);
  });

  it('holds out the fraction, one from each stretch of the document, keeping order', () => {
    const { train, heldOut } = holdOut(items(100), 0.1, 42);
    expect(heldOut).toHaveLength(10);
    expect(train).toHaveLength(90);
    heldOut.forEach((i, s) => {
      expect(Math.floor(i / 10)).toBe(s);
    });
    expect([...train].sort((x, y) => x - y)).toEqual(train);
    expect([...train, ...heldOut].sort((x, y) => x - y)).toEqual(items(100));
  });

  it('is deterministic for a seed, numeric or string, and varies with it', () => {
    expect(holdOut(items(50), 0.2, 7)).toEqual(holdOut(items(50), 0.2, 7));
    expect(holdOut(items(50), 0.2, 'voice-1')).toEqual(holdOut(items(50), 0.2, 'voice-1'));
    const picks = new Set([1, 2, 3, 4, 5].map((seed) => holdOut(items(50), 0.2, seed).heldOut.join()));
    expect(picks.size).toBeGreaterThan(1);
  });

  it('always leaves a passage to train on', () => {
    expect(holdOut(items(3), 0.9, 0).train.length).toBeGreaterThanOrEqual(1);
    expect(holdOut(items(5), 0, 0).heldOut).toEqual([]);
    expect(() => holdOut(items(5), 1, 0)).toThrow(RangeError);
  });
});
