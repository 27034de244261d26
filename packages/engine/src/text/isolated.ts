// Reads uploaded files in separate Node processes (isolation/child-pool.ts): a hostile file can
// make a parser take minutes or gigabytes, or abort the process it runs in, so each file is read
// in a child with a small heap, watched for time and resident memory; past either the caller sees
// an UNREADABLE error and this process is untouched.
import path from 'node:path';
import { ChildPool, IsolatedJobError } from '../isolation/child-pool.js';
import { ENGINE_DIR } from '../package-dir.js';
import { TextExtractionError, type TextExtractionErrorCode } from './errors.js';
import { EXTRACTOR_LIMITS, extractionTimeLimitMs } from './limits.js';
import { acceptedFormat, type ExtractedText, type TrainingText, type UploadedFile, unreadable } from './parse.js';

/** bin/ rather than src/: the server is bundled, but the child always runs the engine's own source. */
const CHILD_ENTRY = path.join(ENGINE_DIR, 'bin', 'extract-child.mjs');

export type ExtractionMode = 'raw' | 'training';

export interface ExtractionJob {
  mode: ExtractionMode;
  name: string;
  data: Uint8Array;
}

export type ExtractionReply =
  | { ok: true; result: ExtractedText | TrainingText }
  | { ok: false; code: TextExtractionErrorCode; message: string };

/** Whose turn it is: files of one owner (an account) wait behind each other, not behind others'. */
export interface ExtractionOwner {
  owner?: string;
}

// --expose-gc: a reader collects its garbage after each file (extract-child.ts).
const pool = new ChildPool<ExtractionJob, ExtractionReply>(CHILD_ENTRY, EXTRACTOR_LIMITS, ['--expose-gc']);

/** Reads `file` in an extraction process; throws TextExtractionError, UNREADABLE when it goes past a bound. */
export async function extractIsolated(
  file: UploadedFile,
  mode: 'raw',
  options?: ExtractionOwner,
): Promise<ExtractedText>;
export async function extractIsolated(
  file: UploadedFile,
  mode: 'training',
  options?: ExtractionOwner,
): Promise<TrainingText>;
export async function extractIsolated(
  file: UploadedFile,
  mode: ExtractionMode,
  { owner }: ExtractionOwner = {},
): Promise<ExtractedText | TrainingText> {
  // Checks that need no parsing come first, and need no process.
  const format = acceptedFormat(file.name);
  let reply: ExtractionReply;
  try {
    reply = await pool.run(
      { mode, name: file.name, data: file.data },
      { ...(owner === undefined ? {} : { owner }), timeLimitMs: extractionTimeLimitMs(file.data.length) },
    );
  } catch (error) {
    const reason = error instanceof IsolatedJobError ? error.message : String(error);
    throw unreadable(file.name, format, reason, error);
  }
  if (!reply.ok) throw new TextExtractionError(reply.code, file.name, reply.message);
  return reply.result;
}
