// Training passages: cleaned text cut into pieces the trainer takes one at a time. Paragraphs are
// kept whole and packed together; only a paragraph longer than maxChars is cut, at sentence ends,
// and only a sentence longer than maxChars is cut between words. Pieces come out even, so a long
// paragraph does not leave a scrap at its end, and a piece shorter than minChars is joined to a
// neighbour unless that would pass maxChars. The same text always gives the same passages.
import { packUnits } from '../chunking/pack.js';
import { splitUnits } from '../chunking/segment.js';
import { seededRandom } from '../seeded-random.js';

export const PASSAGE_MIN_CHARS = 400;
export const PASSAGE_MAX_CHARS = 1500;

export interface PassageOptions {
  /** Shortest passage wanted, in UTF-16 code units (the whole text, when shorter, is one passage). */
  minChars?: number;
  /** Longest passage, in UTF-16 code units. */
  maxChars?: number;
}

/** Passages of `text` (as cleanText gives it), each a slice of it, in order. */
export function splitPassages(text: string, options: PassageOptions = {}): string[] {
  const { minChars = PASSAGE_MIN_CHARS, maxChars = PASSAGE_MAX_CHARS } = options;
  if (!Number.isInteger(maxChars) || maxChars < 1)
    throw new RangeError(`maxChars must be a positive integer: ${maxChars}`);
  if (!(minChars >= 0 && minChars <= maxChars)) throw new RangeError(`minChars must be 0..maxChars: ${minChars}`);
  return packUnits(splitUnits(text, maxChars), { maxChars, minChars }).map((r) => text.slice(r.start, r.end));
}

export interface HeldOut<T> {
  train: T[];
  heldOut: T[];
}

/**
 * Sets aside about `fraction` of the passages for evaluation: one from each of that many equal
 * stretches of the document, at a seeded random place inside it, so the held-out passages span
 * the whole document rather than its end. At least one is held out when there are two or more
 * (unless fraction is 0) and at least one is always left for training. Order is kept in both.
 * The seed may be a number or a string such as the Voice's id.
 */
export function holdOut<T>(passages: readonly T[], fraction = 0.1, seed: number | string = 0): HeldOut<T> {
  if (!(fraction >= 0 && fraction < 1)) throw new RangeError(`fraction must be in [0, 1): ${fraction}`);
  const n = passages.length;
  const k = n >= 2 && fraction > 0 ? Math.min(n - 1, Math.max(1, Math.round(n * fraction))) : 0;
  const random = seededRandom(typeof seed === 'number' ? seed : fnv1a(seed));
  const held = new Set<number>();
  for (let s = 0; s < k; s++) {
    const from = Math.floor((s * n) / k);
    const to = Math.floor(((s + 1) * n) / k);
    held.add(from + Math.floor(random() * (to - from)));
  }
  const train: T[] = [];
  const heldOut: T[] = [];
  passages.forEach((p, i) => {
    (held.has(i) ? heldOut : train).push(p);
  });
  return { train, heldOut };
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  return h >>> 0;
}

/** `max` items spread evenly over `items` (all of them when there are no more than `max`). */
export function spreadEvenly<T>(items: readonly T[], max: number): T[] {
  if (items.length <= max) return [...items];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)] as T);
}
