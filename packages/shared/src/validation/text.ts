// Input hygiene shared by every form: strip NUL characters, trim.
import { z } from 'zod';

export const stripNul = (value: string): string => value.replaceAll('\0', '');
export const cleanText = (value: string): string => stripNul(value).trim();

/** A string that is NUL-stripped and trimmed before any rule sees it. */
export const cleanString = () => z.string().transform(cleanText);

/**
 * Characters as a writer counts them, for the training minimum and every count shown beside it:
 * Unicode code points, with each run of whitespace (spaces, tabs, line breaks) one character, and
 * none at either end. A hundred thousand tabs are one character, not a hundred thousand.
 */
export function countWrittenChars(text: string): number {
  let n = 0;
  for (const _ of text.trim().replace(/\s+/g, ' ')) n++;
  return n;
}
