// The neutral paragraphs the two-author harness rewrites: plain modern prose on everyday subjects
// by neither house author (corpus/neutral.txt), the kind of generic text a person brings to
// Convert. They are not plain versions of the authors' own passages: those keep their author's
// subjects, and with them the function words Delta counts (he, his, shall in the Bible; or, by,
// is in the Jargon File), so a Voice that changed nothing would still be "attributed" to the
// author its inputs came from. The house model never trains on this file.
//
// corpus/neutral-reference.txt is more such prose on other subjects: the harness's authorship
// classifier learns from it what writing by none of the writers reads like, so the paragraphs
// it judges rewrites of are never among its training passages.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR } from './paths.js';

export const NEUTRAL_PATH = path.join(CORPUS_DIR, 'neutral.txt');

const paragraphsOf = (file: string): string[] =>
  readFileSync(file, 'utf8')
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);

/** The paragraphs of corpus/neutral.txt, in order: what the harness's models rewrite. */
export const neutralParagraphs = (): string[] => paragraphsOf(NEUTRAL_PATH);

/** The paragraphs of corpus/neutral-reference.txt: the classifier's neutral prose. */
export const neutralReferenceParagraphs = (): string[] => paragraphsOf(path.join(CORPUS_DIR, 'neutral-reference.txt'));
