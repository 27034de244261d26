// The neutral paragraphs the two-author harness rewrites: plain modern prose on everyday subjects
// by neither house author (corpus/neutral.txt), the kind of generic text a person brings to
// Convert. They are not plain versions of the authors' own passages: those keep their author's
// subjects, and with them the function words Delta counts (he, his, shall in the Bible; or, by,
// is in the Jargon File), so a Voice that changed nothing would still be "attributed" to the
// author its inputs came from. The house model never trains on this file.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from './paths.js';

export const NEUTRAL_PATH = path.join(CORPUS_DIR, 'neutral.txt');

/** The paragraphs of corpus/neutral.txt, in order. */
export function neutralParagraphs(): string[] {
  return readFileSync(NEUTRAL_PATH, 'utf8')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}
