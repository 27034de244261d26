// Imports a Voice package in a child process (isolation/child-pool.ts, voice-package-unpack.ts
// there): a package is untrusted, read with bounds on entries, sizes and header counts, and the
// API's event loop never waits on one. A child that runs too long or grows too large is killed
// and the package refused.
import path from 'node:path';
import { VOICE_PACKAGE_MESSAGES } from '@ownvoice/shared';
import { ChildPool, IsolatedJobError } from '../isolation/child-pool.js';
import { ENGINE_DIR } from '../package-dir.js';
import { type UnpackJob, type UnpackReply, VoicePackageError } from './voice-package-unpack.js';

/** bin/ rather than src/: the server is bundled, but the child always runs the engine's own source. */
const CHILD_ENTRY = path.join(ENGINE_DIR, 'bin', 'voice-package-child.mjs');

/**
 * One child at a time: an import is rare, and it streams its entries to disk, so its memory is
 * the GGUF and safetensors headers it reads (an adapter's: kilobytes).
 */
export const PACKAGE_READER_LIMITS = {
  heapMb: 128,
  rssBytes: 256 * 1024 * 1024,
  processes: 1,
  idleMs: 60_000,
} as const;

/** Copying and checking a package is disk speed: a base plus a share per megabyte. */
export const packageTimeLimitMs = (bytes: number): number => Math.round(10_000 + (200 * bytes) / (1024 * 1024));

const pool = new ChildPool<UnpackJob, UnpackReply>(CHILD_ENTRY, PACKAGE_READER_LIMITS);

/**
 * Unpacks the package at `job.packagePath` into `job.folder` once it is `owner`'s turn. Answers
 * the manifest, or the package's own base model when it is for another; throws VoicePackageError
 * saying why it is not a package. The caller removes the folder when it throws.
 */
export async function importVoicePackage(
  job: UnpackJob,
  { owner, bytes }: { owner: string; bytes: number },
): Promise<Exclude<UnpackReply, { message: string }>> {
  let reply: UnpackReply;
  try {
    reply = await pool.run(job, { owner, timeLimitMs: packageTimeLimitMs(bytes) });
  } catch (error) {
    const why = error instanceof IsolatedJobError ? error.message : String(error);
    throw new VoicePackageError(`${VOICE_PACKAGE_MESSAGES.notAPackage} (it could not be read: ${why})`);
  }
  if ('message' in reply) throw new VoicePackageError(reply.message);
  return reply;
}
