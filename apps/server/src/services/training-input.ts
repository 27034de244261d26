// Checks what a person sent to train a Voice against spec §5 "Create Voice", on the text the
// engine will train on: each file's extracted text and the pasted text, cleaned, counted in
// characters as a writer counts them (a run of whitespace is one). The web form asks the same
// count per file through count-characters. Files are read in the engine's extraction processes,
// so a hostile file costs this process neither time nor memory.
import { readFile } from 'node:fs/promises';
import { cleanText, countChars, extractTrainingText, TextExtractionError, uploadErrorMessage } from '@ownvoice/engine';
import {
  countWrittenChars,
  MAX_PASTED_CHARS,
  MIN_TRAINING_CHARS,
  stripNul,
  VOICE_MESSAGES,
  voiceNameSchema,
} from '@ownvoice/shared';
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

/** Characters the engine will train on from one file; throws the §5 message when it cannot read it. */
export async function countFileCharacters(file: FileOnDisk): Promise<number> {
  const counts = await countFiles([file]);
  return counts[0] ?? 0;
}

async function countFiles(files: readonly FileOnDisk[]): Promise<number[]> {
  const counts: number[] = [];
  const failed: TextExtractionError[] = [];
  for (const file of files) {
    try {
      const { characters } = await extractTrainingText({ name: file.name, data: await readFile(file.path) });
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

/** Throws VALIDATION_ERROR with the first rule broken: name, pasted length, unreadable files, too little text. */
export async function checkTrainingInput(
  fields: Record<string, string | undefined>,
  files: readonly FileOnDisk[],
): Promise<CheckedTrainingInput> {
  const name = voiceNameSchema.safeParse(fields.name ?? '');
  if (!name.success) throw errors.validation(name.error.issues[0]?.message ?? VOICE_MESSAGES.nameRequired);
  const pastedText = stripNul(fields.text ?? '');
  // The raw length, as the form cuts it: this bounds the work below.
  if (countChars(pastedText) > MAX_PASTED_CHARS) throw errors.validation(VOICE_MESSAGES.pastedTooLong);
  const fileChars = await countFiles(files);
  const characters = countPastedCharacters(pastedText) + fileChars.reduce((a, b) => a + b, 0);
  if (characters < MIN_TRAINING_CHARS) throw errors.validation(VOICE_MESSAGES.tooFewChars(characters));
  return { name: name.data, pastedText, characters };
}
