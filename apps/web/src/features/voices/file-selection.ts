// Which chosen files the create form takes: accepted types only, at most
// 10 MB each and 50 MB together; the rest are reported with the shared messages, grouped by
// problem. The server's per-file count can refuse a file too (bad encoding, unreadable).
import {
  countWrittenChars,
  hasAcceptedExtension,
  MAX_FILE_BYTES,
  MAX_TOTAL_UPLOAD_BYTES,
  MIN_TRAINING_CHARS,
  VOICE_MESSAGES,
} from '@ownvoice/shared';
import { isApiError } from '../../lib/api-error';

/** What the rules need of a File, so they are testable without one. */
export interface FileLike {
  name: string;
  size: number;
  lastModified: number;
}

export type FileProblem = 'invalidType' | 'tooLarge' | 'badEncoding' | 'readError';

export interface FileFailure {
  name: string;
  /** null when the server refused the file for a reason of its own; `message` then says it. */
  problem: FileProblem | null;
  message: string;
}

export interface Screening<F extends FileLike> {
  accepted: F[];
  failures: FileFailure[];
  /** Files left out because the 50 MB total would be passed (the EGAD! modal lists them). */
  overTotal: F[];
}

/** The same file chosen twice (same name, size and date) is taken once. */
export const sameFile = (a: FileLike, b: FileLike): boolean =>
  a.name === b.name && a.size === b.size && a.lastModified === b.lastModified;

const failure = (name: string, problem: FileProblem): FileFailure => ({ name, problem, message: '' });

export function screenFiles<F extends FileLike>(existing: readonly FileLike[], incoming: readonly F[]): Screening<F> {
  const result: Screening<F> = { accepted: [], failures: [], overTotal: [] };
  let totalBytes = existing.reduce((sum, file) => sum + file.size, 0);
  for (const file of incoming) {
    if ([...existing, ...result.accepted].some((known) => sameFile(known, file))) continue;
    if (!hasAcceptedExtension(file.name)) {
      result.failures.push(failure(file.name, 'invalidType'));
    } else if (file.size > MAX_FILE_BYTES) {
      result.failures.push(failure(file.name, 'tooLarge'));
    } else if (totalBytes + file.size > MAX_TOTAL_UPLOAD_BYTES) {
      // A smaller file later in the batch may still fit.
      result.overTotal.push(file);
    } else {
      totalBytes += file.size;
      result.accepted.push(file);
    }
  }
  return result;
}

/** "Invalid file types:" from "Invalid file types: a.exe. Please use: ...": how to recognise each message. */
const prefixOf = (message: string): string => message.slice(0, message.indexOf(':') + 1);

const SERVER_PREFIXES: readonly [string, FileProblem][] = [
  [prefixOf(VOICE_MESSAGES.invalidTypes([])), 'invalidType'],
  [prefixOf(VOICE_MESSAGES.tooLarge([])), 'tooLarge'],
  [prefixOf(VOICE_MESSAGES.badEncoding([])), 'badEncoding'],
];

/** Why the server's character count refused a file. */
export function classifyCountFailure(name: string, error: unknown): FileFailure {
  if (!isApiError(error)) return failure(name, 'readError');
  if (error.status === 413) return failure(name, 'tooLarge');
  if (error.msg === VOICE_MESSAGES.readError) return failure(name, 'readError');
  const known = SERVER_PREFIXES.find(([prefix]) => error.msg.startsWith(prefix));
  if (known) return failure(name, known[1]);
  return { name, problem: null, message: error.msg || VOICE_MESSAGES.readError };
}

/** One message per problem, naming every file that had it: wrong type, too large, bad encoding, unreadable, other. */
export function failureMessages(failures: readonly FileFailure[]): string[] {
  const namesWith = (problem: FileProblem) => failures.filter((f) => f.problem === problem).map((f) => f.name);
  const messages: string[] = [];
  const invalid = namesWith('invalidType');
  if (invalid.length > 0) messages.push(VOICE_MESSAGES.invalidTypes(invalid));
  const large = namesWith('tooLarge');
  if (large.length > 0) messages.push(VOICE_MESSAGES.tooLarge(large));
  const encoding = namesWith('badEncoding');
  if (encoding.length > 0) messages.push(VOICE_MESSAGES.badEncoding(encoding));
  if (namesWith('readError').length > 0) messages.push(VOICE_MESSAGES.readError);
  for (const f of failures) {
    if (f.problem === null && !messages.includes(f.message)) messages.push(f.message);
  }
  return messages;
}

/** Characters the Voice would train on, as the server counts them: the pasted text plus every counted file. */
export function totalCharacters(pasted: string, counts: readonly (number | null)[]): number {
  return counts.reduce<number>((sum, count) => sum + (count ?? 0), countWrittenChars(pasted));
}

export const hasEnoughCharacters = (total: number): boolean => total >= MIN_TRAINING_CHARS;
