// Trains a byte-level BPE vocabulary (Sennrich et al. 2016; GPT-2's byte-level variant):
// start from the 256 byte tokens and repeatedly merge the most frequent adjacent pair.
// Deterministic: ties break on the pair's text, so the same corpus gives the same vocabulary.
import { BYTE_CHARS, bytesToTokenText, preTokenize } from './byte-level.js';

export interface BpeVocabulary {
  /** Token texts in id order: special tokens, then the 256 bytes, then merged tokens. */
  tokens: string[];
  /** Merges in priority order, as "left right". */
  merges: string[];
  specialTokens: string[];
}

export function trainBpe(corpus: string, vocabSize: number, specialTokens: string[]): BpeVocabulary {
  const encoder = new TextEncoder();
  // word (as symbol list) -> count
  const wordCounts = new Map<string, number>();
  for (const piece of preTokenize(corpus)) {
    const key = bytesToTokenText(encoder.encode(piece));
    wordCounts.set(key, (wordCounts.get(key) ?? 0) + 1);
  }
  const words: { symbols: string[]; count: number }[] = [...wordCounts].map(([w, count]) => ({
    symbols: [...w],
    count,
  }));

  const tokens = [...specialTokens, ...BYTE_CHARS];
  const merges: string[] = [];
  const target = vocabSize - tokens.length;
  for (let m = 0; m < target; m++) {
    const pairs = new Map<string, number>();
    for (const { symbols, count } of words) {
      for (let i = 0; i + 1 < symbols.length; i++) {
        const key = `${symbols[i]} ${symbols[i + 1]}`;
        pairs.set(key, (pairs.get(key) ?? 0) + count);
      }
    }
    let best: string | undefined;
    let bestCount = 1; // a pair seen once is not worth a token
    for (const [pair, count] of pairs) {
      if (count > bestCount || (count === bestCount && best !== undefined && pair < best)) {
        best = pair;
        bestCount = count;
      }
    }
    if (!best) break;
    const [left, right] = best.split(' ') as [string, string];
    const merged = left + right;
    merges.push(best);
    tokens.push(merged);
    for (const w of words) {
      const s = w.symbols;
      if (s.length < 2) continue;
      const out: string[] = [];
      for (let i = 0; i < s.length; i++) {
        if (i + 1 < s.length && s[i] === left && s[i + 1] === right) {
          out.push(merged);
          i++;
        } else {
          out.push(s[i] as string);
        }
      }
      w.symbols = out;
    }
  }
  return { tokens, merges, specialTokens };
}
