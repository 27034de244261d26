// Normalises extracted text before it is counted, cut into passages and trained on. Paragraph
// breaks (blank lines) are part of a writer's style, so they are kept; everything that is only an
// artefact of the file (encodings, PDF line ends, invisible characters, stray spacing) goes.

import type { TextFormat } from './formats.js';

export interface CleanOptions {
  /**
   * Join the lines of each paragraph with spaces. For PDFs, whose line ends are where the page
   * ran out of width rather than where the writer pressed return; other formats keep their lines.
   */
  unwrapLines?: boolean;
}

// Invisible characters a writer never means: zero-width space, word joiner, byte-order mark, and
// the soft hyphen PDFs and web pages leave inside words. Zero-width (non-)joiners are kept: they
// change how Persian, Indic scripts and emoji sequences are written.
const INVISIBLE = /[\u200B\u2060\uFEFF\u00AD\u180E]/g;
// C0 and C1 controls and DEL, except tab and line feed (form feed and line/paragraph separators
// are turned into breaks first).
const CONTROL = /(?![\t\n])\p{Cc}/gu;
// Unicode spaces (no-break, thin, ideographic, ...) are written as a plain space.
const SPACE_LIKE = /[\u00A0\u1680\u2000-\u200A\u202F\u205F\u3000]/g;

// Spaces and tabs at the start or end of a line go. One pass over each run: a pattern such as
// /[ \t]+\n/ retries every run from each of its characters, quadratic in the run's length.
const trimAtLineEnds = (run: string, at: number, text: string): string =>
  text.charCodeAt(at - 1) === 10 || text.charCodeAt(at + run.length) === 10 ? '' : run;

// Every pattern here matches in time linear in the text: no pattern can fail after consuming an
// unbounded run and then be retried from inside that run.
export function cleanText(text: string, options: CleanOptions = {}): string {
  let t = text
    .replace(/\r\n?/g, '\n')
    .replace(/[\f\u2029]/g, '\n\n')
    .replace(/[\v\u2028\u0085]/g, '\n')
    .replace(CONTROL, '')
    // A soft hyphen at a line end marks where a word was broken: join its halves.
    .replace(/\u00AD[ \t]*\n[ \t]*/g, '')
    .replace(INVISIBLE, '')
    .replace(SPACE_LIKE, ' ')
    .replace(/ {2,}/g, ' ')
    .replace(/[ \t]+/g, trimAtLineEnds)
    // A word hyphenated at a line end (PDFs, hard-wrapped text): "exam-\nple" -> "example".
    .replace(/(\p{L})-\n(?=\p{Ll})/gu, '$1');
  if (options.unwrapLines) t = t.replace(/([^\n])\n(?=[^\n])/g, '$1 ');
  return t
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .normalize('NFC');
}

/** Characters as a person counts them: Unicode code points, not UTF-16 code units. */
export function countChars(text: string): number {
  let n = 0;
  for (const _ of text) n++;
  return n;
}

/** cleanText with the options the file's format needs: PDF lines are unwrapped. */
export function cleanExtracted(extracted: { text: string; format: TextFormat }): string {
  return cleanText(extracted.text, { unwrapLines: extracted.format === 'pdf' });
}
