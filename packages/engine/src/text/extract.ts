// The text of one uploaded file, by its extension. Files are read in a separate process with
// bounds on time and memory (isolated.ts), so no file can stall or end the caller's process.
import { type ExtractionOwner, extractIsolated } from './isolated.js';
import type { ExtractedText, TrainingText, UploadedFile } from './parse.js';

export type { ExtractionOwner } from './isolated.js';
export type { ExtractedText, TrainingText, UploadedFile } from './parse.js';

/**
 * The text as the file gives it (paragraphs separated by blank lines); cleanExtracted normalises
 * it for training. Throws TextExtractionError: UNSUPPORTED_TYPE for an extension not in
 * ACCEPTED_EXTENSIONS (or .htm), NUL_CHARACTERS when a text format's bytes or any format's text
 * hold a NUL, UNREADABLE when the file is not what its extension says, is damaged, or goes past
 * a bound of limits.ts (inflated size, text length, time, memory).
 */
export function extractText(file: UploadedFile, options?: ExtractionOwner): Promise<ExtractedText> {
  return extractIsolated(file, 'raw', options);
}

/**
 * The text a Voice is trained on from one file: extracted and cleaned (cleanExtracted) in the
 * extraction process, with its characters as a writer counts them (countWrittenChars). Throws as
 * extractText does. `owner` (an account) gets its fair share of the extraction processes.
 */
export function extractTrainingText(file: UploadedFile, options?: ExtractionOwner): Promise<TrainingText> {
  return extractIsolated(file, 'training', options);
}
