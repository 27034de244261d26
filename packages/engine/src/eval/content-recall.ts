// Content kept by a rewrite: the share of the input's content words that the output still has.
// Content words are the words that are not function words (function-words.ts); each is compared
// by a rough stem, so "gives", "giveth" and "giving" count as the same word: a rewrite in an
// older or newer voice keeps the content even when it inflects it differently.
import { FUNCTION_WORDS } from './function-words.js';

const WORD = /\p{L}+(?:['’]\p{L}+)*/gu;
const FUNCTION = new Set(FUNCTION_WORDS);
const SUFFIXES = ['eth', 'est', 'ing', 'ed', 'es', 's'];

/** A word's rough stem: lowercase, less one common inflection when at least three letters remain. */
export function stem(word: string): string {
  const w = word.toLowerCase().replace(/['’]s$/, '');
  for (const suffix of SUFFIXES) {
    if (w.endsWith(suffix) && w.length - suffix.length >= 3) return w.slice(0, -suffix.length);
  }
  return w;
}

/** The stems of a text's content words. */
export function contentStems(text: string): Set<string> {
  const out = new Set<string>();
  for (const [token] of text.matchAll(WORD)) {
    const w = token.toLowerCase();
    if (!FUNCTION.has(w)) out.add(stem(w));
  }
  return out;
}

/** Share (0..1) of the input's content words found in the output; 1 for an input without any. */
export function contentRecall(input: string, output: string): number {
  const wanted = contentStems(input);
  if (!wanted.size) return 1;
  const got = contentStems(output);
  let kept = 0;
  for (const w of wanted) if (got.has(w)) kept++;
  return kept / wanted.size;
}
