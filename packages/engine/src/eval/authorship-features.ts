// What the authorship classifier sees of a passage, two kinds of features that the literature on
// attribution finds to carry a writer's habits more than their subject (Stamatatos 2009, "A
// survey of modern authorship attribution methods"):
//   character n-grams  of each length n (2, 3 and 4 by default), the share of the passage's
//                      n-grams that is each of the most common n-grams of the training passages:
//                      spelling, punctuation, inflections and short words all at once
//   function words     each function word's share of the passage's words (function-words.ts,
//                      the same profile Burrows' Delta uses)
// Which n-grams count is chosen on the training passages only, so a cross-validation's held-out
// fold never picks its own features. Case and punctuation are kept (they are style); runs of
// whitespace count as one space (they are layout).
//
// Shapes: vector(text) is Float64Array(D), D = names.length, the n-grams first, in `names` order.
import { FUNCTION_WORDS } from './function-words.js';
import { functionWordProfile } from './stylometry.js';

export interface FeatureOptions {
  /** Lengths of the character n-grams. */
  ngramSizes?: readonly number[];
  /** N-grams kept in all, shared evenly among the lengths: the most frequent of each. */
  maxNgrams?: number;
}

const normalise = (text: string) => text.replace(/\s+/g, ' ').trim();

/** How often each n-gram of length n occurs in the text, and how many n-grams it has. */
function ngramCounts(text: string, n: number): { counts: Map<string, number>; total: number } {
  const counts = new Map<string, number>();
  const chars = Array.from(text); // code points, so a letter outside the BMP is one character
  for (let i = 0; i + n <= chars.length; i++) {
    const gram = chars.slice(i, i + n).join('');
    counts.set(gram, (counts.get(gram) ?? 0) + 1);
  }
  return { counts, total: Math.max(0, chars.length - n + 1) };
}

export class FeatureSpace {
  private constructor(
    /** The chosen n-grams of each length. */
    private readonly ngrams: ReadonlyMap<number, readonly string[]>,
  ) {}

  /** Picks the features on `texts`, the training passages. */
  static fit(texts: readonly string[], options: FeatureOptions = {}): FeatureSpace {
    const { ngramSizes = [2, 3, 4], maxNgrams = 600 } = options;
    const perSize = Math.floor(maxNgrams / ngramSizes.length);
    const chosen = new Map<number, string[]>();
    for (const n of ngramSizes) {
      const totals = new Map<string, number>();
      for (const text of texts) {
        for (const [gram, c] of ngramCounts(normalise(text), n).counts) totals.set(gram, (totals.get(gram) ?? 0) + c);
      }
      // Most frequent first; ties by the n-gram itself, so the choice never depends on input order.
      const ranked = [...totals].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
      chosen.set(
        n,
        ranked.slice(0, perSize).map(([gram]) => gram),
      );
    }
    return new FeatureSpace(chosen);
  }

  /** The features' names: `c3:the` for a 3-gram, `w:the` for a function word. */
  get names(): string[] {
    return [
      ...[...this.ngrams].flatMap(([n, grams]) => grams.map((g) => `c${n}:${g}`)),
      ...FUNCTION_WORDS.map((w) => `w:${w}`),
    ];
  }

  vector(text: string): Float64Array {
    const clean = normalise(text);
    const out: number[] = [];
    for (const [n, grams] of this.ngrams) {
      const { counts, total } = ngramCounts(clean, n);
      for (const g of grams) out.push(total ? (counts.get(g) ?? 0) / total : 0);
    }
    const { frequencies } = functionWordProfile(clean);
    for (const w of FUNCTION_WORDS) out.push(frequencies[w] ?? 0);
    return Float64Array.from(out);
  }
}
