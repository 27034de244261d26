// Burrows' Delta (Burrows 2002, "'Delta': a Measure of Stylistic Difference and a Guide to Likely
// Authorship"): how far apart two texts are in their use of common function words. Each word's
// relative frequency is turned into a z-score against a reference set of texts, so a word that
// varies a lot between texts counts no more than one that varies little; Delta is the mean
// absolute difference of the two texts' z-scores. 0 means the same profile; between texts by
// different writers it is typically around 1 or more.
import { FUNCTION_WORDS } from './function-words.js';

export interface FunctionWordProfile {
  /** Words in the text (letters, with inner apostrophes), the denominator of the frequencies. */
  words: number;
  /** Each function word's share of the text's words, 0..1. */
  frequencies: Readonly<Record<string, number>>;
}

/** A text, or its profile when it has already been computed. */
export type StyleSample = string | FunctionWordProfile;

const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;

export function functionWordProfile(text: string): FunctionWordProfile {
  const counts = new Map<string, number>(FUNCTION_WORDS.map((w) => [w, 0]));
  let words = 0;
  for (const [token] of text.matchAll(WORD)) {
    words++;
    const w = token.toLowerCase();
    const c = counts.get(w);
    if (c !== undefined) counts.set(w, c + 1);
  }
  const frequencies: Record<string, number> = {};
  for (const [w, c] of counts) frequencies[w] = words ? c / words : 0;
  return { words, frequencies };
}

/**
 * A fixed scale for Delta: each function word's mean and standard deviation over a reference set
 * of texts. Texts measured on one scale are comparable with each other, and the texts being
 * measured (a model's outputs, say) can be kept out of the reference, so they cannot bend the
 * scale towards themselves. Words that do not vary across the reference say nothing and are left
 * out.
 */
export class StyleScale {
  private readonly words: { word: string; mean: number; sd: number }[] = [];

  constructor(referenceTexts: readonly StyleSample[]) {
    const set = referenceTexts.map(toProfile);
    if (set.length < 2) throw new RangeError('a style scale needs at least two reference texts');
    for (const word of FUNCTION_WORDS) {
      const values = set.map((p) => p.frequencies[word] ?? 0);
      const mean = values.reduce((s, v) => s + v, 0) / values.length;
      const sd = Math.sqrt(values.reduce((s, v) => s + (v - mean) ** 2, 0) / (values.length - 1));
      if (sd > 0) this.words.push({ word, mean, sd });
    }
  }

  /** Mean absolute difference of the two texts' z-scores on this scale. */
  delta(a: StyleSample, b: StyleSample): number {
    if (a === b || !this.words.length) return 0;
    const [pa, pb] = [toProfile(a), toProfile(b)];
    let sum = 0;
    for (const { word, sd } of this.words) {
      sum += Math.abs(((pa.frequencies[word] ?? 0) - (pb.frequencies[word] ?? 0)) / sd);
    }
    return sum / this.words.length;
  }
}

/**
 * Delta between a and b, with z-scores taken over a, b and the reference texts together (the
 * same text given twice counts once). With only a and b the z-scores are all ±1 and Delta says
 * little beyond which words differ: pass other texts (other writers, other samples) for a
 * meaningful scale. To keep measured texts off the scale, use StyleScale.
 */
export function burrowsDelta(a: StyleSample, b: StyleSample, referenceTexts: readonly StyleSample[] = []): number {
  if (a === b) return 0;
  return new StyleScale([...new Set([a, b, ...referenceTexts])]).delta(a, b);
}

/**
 * Delta shown as a similarity from 0 to 1: 1 / (1 + Delta²). Identical profiles give 1; a Delta
 * of 1 (the two texts a standard deviation apart on the average word, usual for different
 * writers) gives 0.5; a Delta of 2 gives 0.2. It orders pairs as Delta does; it is not a
 * probability of shared authorship.
 */
export function styleSimilarity(delta: number): number {
  if (!(delta >= 0)) throw new RangeError(`Delta is a non-negative number, got ${delta}`);
  return 1 / (1 + delta * delta);
}

function toProfile(sample: StyleSample): FunctionWordProfile {
  return typeof sample === 'string' ? functionWordProfile(sample) : sample;
}
