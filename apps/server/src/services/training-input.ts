// Checks what a person sent to train a Voice against the Create Voice rules (the shared
// validation/voice.ts: file types and sizes, at least 20,000 characters), on the text the engine
// will train on: each file's extracted text and the pasted text, cleaned, counted in
// characters as a writer counts them (a run of whitespace is one). The web form asks the same
// count per file through count-characters. Files are read in the engine's extraction processes,
// so a hostile file costs this process neither time nor memory.
import { readFile } from 'node:fs/promises';
import { cleanText, extractTrainingText, TextExtractionError, uploadErrorMessage } from '@ownvoice/engine';
import { countWrittenChars, MIN_TRAINING_CHARS, VOICE_MESSAGES } from '@ownvoice/shared';
import { errors } from '../errors.js';

export interface FileOnDisk {
  name: string;
  path: string;
}

export interface CheckedTrainingInput {
  name: string;
  /** The pasted text with NUL characters removed. */
  pastedText: string;
  characters: number;
}

/**
 * Characters the engine will train on from one file; throws the upload message when it cannot
 * read it. `owner` is the account: its files take their turn at the shared readers fairly.
 */
export async function countFileCharacters(file: FileOnDisk, owner: string): Promise<number> {
  const counts = await countFiles([file], owner);
  return counts[0] ?? 0;
}

async function countFiles(files: readonly FileOnDisk[], owner: string): Promise<number[]> {
  const counts: number[] = [];
  const failed: TextExtractionError[] = [];
  for (const file of files) {
    try {
      const { characters } = await extractTrainingText({ name: file.name, data: await readFile(file.path) }, { owner });
      counts.push(characters);
    } catch (error) {
      if (!(error instanceof TextExtractionError)) throw error;
      failed.push(error);
    }
  }
  if (failed.length) throw errors.validation(uploadErrorMessage(failed));
  return counts;
}

/** Callers bound the text first (MAX_PASTED_CHARS): cleaning is linear, but runs in this process. */
export const countPastedCharacters = (text: string): number => countWrittenChars(cleanText(text));

/**
 * Throws VALIDATION_ERROR when a file cannot be read or there is too little text. The fields come
 * checked by their schema (routes/loras/loras.schemas.ts), which bounds the pasted text.
 */
export async function checkTrainingInput(
  fields: { name: string; text: string },
  files: readonly FileOnDisk[],
  owner: string,
): Promise<CheckedTrainingInput> {
  const fileChars = await countFiles(files, owner);
  const characters = countPastedCharacters(fields.text) + fileChars.reduce((a, b) => a + b, 0);
  if (characters < MIN_TRAINING_CHARS) throw errors.validation(VOICE_MESSAGES.tooFewChars(characters));
  return { name: fields.name, pastedText: fields.text, characters };
}
