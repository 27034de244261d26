// Whether a Voice's rewrite of one chunk is usable. Small models sometimes write nothing, loop on
// a phrase, stop after a few words or ramble on, or carry on past the chunk into text of their
// own; Convert rejects such output and asks again, a bounded number of times.

import { contentRecall } from '../eval/content-recall.js';

export type RewriteVerdict = { ok: true } | { ok: false; reason: string };

/** Rewrites shorter or longer than this, relative to the original, are rejected. */
const MIN_LENGTH_RATIO = 0.35;
const MAX_LENGTH_RATIO = 2.5;
/** Below this many characters the original is too short for length ratios to mean anything. */
const MIN_CHARS_FOR_RATIO = 40;

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/** True when a phrase keeps coming back: a few 3-word sequences make up much of the text. */
export function isRepetitive(text: string): boolean {
  const w = words(text);
  if (w.length >= 12) {
    const counts = new Map<string, number>();
    for (let i = 0; i + 3 <= w.length; i++) {
      const key = `${w[i]} ${w[i + 1]} ${w[i + 2]}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
    const top = Math.max(...counts.values());
    if (top >= 4 && top * 3 >= w.length / 4) return true;
  }
  // Runs of the same symbol ("| | | |", "-----") outside words.
  return /([^\p{L}\p{N}\s])(?:\s*\1){11,}/u.test(text);
}

/**
 * `original` is the chunk's own text, `nextOriginal` the chunk after it (if any): a rewrite that
 * starts reproducing it ran into the next chunk.
 */
export function judgeRewrite(original: string, rewritten: string, nextOriginal?: string): RewriteVerdict {
  const out = rewritten.trim();
  if (!out) return { ok: false, reason: 'the Voice wrote nothing' };
  if (/^#{3} (Plain text|In my voice):/m.test(out)) return { ok: false, reason: 'it ran into the next chunk' };
  if (nextOriginal) {
    const opening = nextOriginal.trim().slice(0, 40).toLowerCase();
    if (opening.length >= 20 && out.toLowerCase().includes(opening)) {
      return { ok: false, reason: 'it ran into the next chunk' };
    }
  }
  if (isRepetitive(out)) return { ok: false, reason: 'it repeated itself' };
  const length = original.trim().length;
  if (length >= MIN_CHARS_FOR_RATIO) {
    const ratio = out.length / length;
    if (ratio < MIN_LENGTH_RATIO) return { ok: false, reason: 'it was much shorter than the original' };
    if (ratio > MAX_LENGTH_RATIO) return { ok: false, reason: 'it was much longer than the original' };
  } else if (words(out).length > SHORT_MAX_WORDS(words(original).length)) {
    return { ok: false, reason: 'it was much longer than the original' };
  }
  return { ok: true };
}

/**
 * Most words a rewrite of a short piece (a heading, a brief list item) may have. A real model's
 * Voice learnt on paragraphs wrote a sentence of its own for the two-word heading "Moving day"
 * ("The day before yesterday was a very different story. The first thing…").
 */
const SHORT_MAX_WORDS = (originalWords: number) => 2 * originalWords + 3;

/**
 * Whether a piece is short enough that, where no rewrite of it passes, it keeps its own words
 * rather than failing its chunk: a heading or a brief item says little of anyone's style.
 */
export const isShortPiece = (original: string): boolean => original.trim().length < MIN_CHARS_FOR_RATIO;

/** Least share of a short piece's content words (content-recall.ts) that its rewrite keeps. */
const SHORT_MIN_RECALL = 0.5;

/**
 * A heading or brief item of markdown (isShortPiece) must also stay about what it said: a real
 * model's Voice wrote "The city of angels." for the heading "Moving day", short enough to pass
 * judgeRewrite. Where no rewrite keeps it, the piece keeps its own words.
 */
export function judgeShortPiece(original: string, rewritten: string): RewriteVerdict {
  if (contentRecall(original, rewritten) >= SHORT_MIN_RECALL) return { ok: true };
  return { ok: false, reason: 'it lost what the original says' };
}

/** A line's markdown block prefix: indentation, quote markers, a heading's hashes, a list marker. */
const BLOCK_PREFIX = /^\s*(?:>\s?)*(?:#{1,6}\s|[-*+]\s(?:\[[ xX]\]\s)?|\d+[.)]\s)?/;
/** What must come through an edit unchanged: code fences, code spans and link or image targets. */
const KEPT_SPANS = /```|`[^`\n]+`|\]\([^)\s]*\)/g;

/** The layout an edit must keep: each line's block prefix (blank lines too), then the spans that carry code or addresses. */
function markdownLayout(text: string): string {
  const prefixes = text
    .split('\n')
    .map((line) => (line.trim() === '' ? '' : (BLOCK_PREFIX.exec(line)?.[0].trim() ?? '')));
  return JSON.stringify([prefixes, text.match(KEPT_SPANS) ?? []]);
}

/**
 * Whether the edit pass's version keeps the rewrite's markdown: the same lines with the same block
 * prefixes (headings, list items, quotes, blank lines), and every code fence, code span and link
 * target as it was.
 * The editor is the plain base model, which sees the chunk whole; when it moves or drops any of
 * these the Voice's text stays, so Convert's structure survives the pass.
 */
export const keepsMarkdownLayout = (rewritten: string, edited: string): boolean =>
  markdownLayout(rewritten.trim()) === markdownLayout(edited.trim());
