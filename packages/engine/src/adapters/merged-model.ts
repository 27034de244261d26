// Builds a Voice's merged model (merge.ts) in a child process: the merge reads and writes the
// whole base model, seconds to minutes of CPU, and the API's event loop never waits on it. One
// merge at a time, turns shared fairly between accounts; a child that runs too long or grows too
// large is killed and the merge refused.
import path from 'node:path';
import { ChildPool, IsolatedJobError } from '../isolation/child-pool.js';
import { ENGINE_DIR } from '../package-dir.js';
import { MergeError, type MergeJob } from './merge.js';
import type { MergeReply } from './merge-child.js';

/** bin/ rather than src/: the server is bundled, but the child always runs the engine's own source. */
const CHILD_ENTRY = path.join(ENGINE_DIR, 'bin', 'merge-child.mjs');

/**
 * A merge holds one projection at a time (the largest of the 360M default: 2.5 M weights, 10 MB
 * as float32) and copies the rest in 4 MB pieces.
 */
export const MERGE_LIMITS = {
  heapMb: 256,
  rssBytes: 512 * 1024 * 1024,
  processes: 1,
  idleMs: 30_000,
} as const;

/** A base plus a share per megabyte of base model: decoding, merging and writing run at about 5 MB/s on one slow core. */
export const mergeTimeLimitMs = (baseBytes: number): number => Math.round(60_000 + (200 * baseBytes) / (1024 * 1024));

const pool = new ChildPool<MergeJob, MergeReply>(CHILD_ENTRY, MERGE_LIMITS);

/**
 * Writes the merged model of `job` once it is `owner`'s turn; answers its size. Throws MergeError
 * saying why when it could not be made. The caller removes `job.outPath`'s folder either way.
 */
export async function buildMergedModel(
  job: MergeJob,
  { owner, baseBytes }: { owner: string; baseBytes: number },
): Promise<{ bytes: number }> {
  let reply: MergeReply;
  try {
    reply = await pool.run(job, { owner, timeLimitMs: mergeTimeLimitMs(baseBytes) });
  } catch (error) {
    const why = error instanceof IsolatedJobError ? error.message : String(error);
    throw new MergeError(`The merged model could not be built (${why}).`);
  }
  if ('message' in reply) throw new MergeError(reply.message);
  return reply;
}
