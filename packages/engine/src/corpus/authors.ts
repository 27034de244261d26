// The two authors of the house corpus, and the slice of each that the house model never trains
// on. Voices of the two authors are trained and evaluated on those slices (the tests, the
// evaluation harness, the benchmarks), so a Voice's held-out figures measure writing the base
// model has not seen either, as with a real person's writing.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from './paths.js';

export const HOUSE_AUTHORS = ['kjv', 'jargon'] as const;
export type HouseAuthor = (typeof HOUSE_AUTHORS)[number];

/** Characters of each author kept out of the house model: room for a Voice and its held-out text. */
export const RESERVED_CHARS = 40_000;

export const corpusText = (author: HouseAuthor): string => readFileSync(path.join(CORPUS_DIR, `${author}.txt`), 'utf8');

/** Where the reserved slice lies: whole paragraphs from the middle of the text. */
export function reservedRange(text: string): { start: number; end: number } {
  const start = text.indexOf('\n\n', Math.floor(text.length / 2)) + 2;
  const end = text.indexOf('\n\n', start + RESERVED_CHARS);
  return { start, end: end < 0 ? text.length : end };
}

/** The author's writing that the house model never saw. */
export function authorWriting(author: HouseAuthor): string {
  const text = corpusText(author);
  const { start, end } = reservedRange(text);
  return text.slice(start, end);
}

/** The rest of the author's text: what the house model trains on. */
export function houseTrainingText(author: HouseAuthor): string {
  const text = corpusText(author);
  const { start, end } = reservedRange(text);
  return `${text.slice(0, start)}${text.slice(end + 2)}`;
}
