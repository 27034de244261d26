// Runs file extraction in separate Node processes. A hostile file can make a parser take minutes
// or gigabytes, and some failures (V8's "invalid size" and out-of-memory errors) abort the whole
// process they happen in, worker threads included. So each file is read in a child process with
// a small heap, watched for time and resident memory and killed past either; the caller sees an
// UNREADABLE error and this process is untouched. Children are reused while they behave. Turns at
// the processes are shared fairly between accounts (fair-queue.ts): nobody's slow files make
// another person's wait behind all of them.
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { ENGINE_DIR } from '../package-dir.js';
import { TextExtractionError, type TextExtractionErrorCode } from './errors.js';
import { FairQueue } from './fair-queue.js';
import { EXTRACTOR_LIMITS, extractionTimeLimitMs } from './limits.js';
import { acceptedFormat, type ExtractedText, type TrainingText, type UploadedFile, unreadable } from './parse.js';

/** bin/ rather than src/: the server is bundled, but the child always runs the engine's own source. */
const CHILD_ENTRY = path.join(ENGINE_DIR, 'bin', 'extract-child.mjs');
const STARTUP_MS = 60_000;
const WATCH_MS = 100;

export type ExtractionMode = 'raw' | 'training';

export interface ChildRequest {
  id: number;
  mode: ExtractionMode;
  name: string;
  data: Uint8Array;
}

export type ChildReply =
  | { id: number; ok: true; result: ExtractedText | TrainingText; rss: number }
  | { id: number; ok: false; code: TextExtractionErrorCode; message: string; rss: number };

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  idleTimer?: NodeJS.Timeout;
  /** Takes it off the idle list when it exits while idle. */
  leave?: () => void;
}

/** Whose turn it is: files of one owner (an account) wait behind each other, not behind others'. */
export interface ExtractionOwner {
  owner?: string;
}
/** Files with no owner named (the command line, a training in the worker) share one. */
const NO_OWNER = '';

let nextId = 1;
const idle: Worker[] = [];
const turns = new FairQueue(EXTRACTOR_LIMITS.processes);

function spawnWorker(): Worker {
  const child = fork(CHILD_ENTRY, [], {
    execArgv: [`--max-old-space-size=${EXTRACTOR_LIMITS.heapMb}`],
    serialization: 'advanced',
    stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
  });
  // Failures show up as exits and failed sends, handled where they matter.
  child.on('error', () => {});
  const ready = new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error('the extraction process did not start'));
    }, STARTUP_MS);
    child.once('message', () => {
      // Its first message says it has loaded the parsers.
      clearTimeout(timer);
      resolve();
    });
    child.once('exit', () => {
      clearTimeout(timer);
      reject(new Error('the extraction process exited on start'));
    });
  });
  ready.catch(() => {});
  return { child, ready };
}

/** A process for `owner`'s next file, once it is their turn; with the turn's release. */
async function acquire(owner: string): Promise<{ worker: Worker; endTurn: () => void }> {
  const endTurn = await turns.take(owner);
  const worker = idle.pop();
  if (worker) {
    clearTimeout(worker.idleTimer);
    if (worker.leave) worker.child.off('exit', worker.leave);
    worker.child.ref();
    worker.child.channel?.ref();
    return { worker, endTurn };
  }
  return { worker: spawnWorker(), endTurn };
}

function release(worker: Worker, reusable: boolean, endTurn: () => void): void {
  if (reusable && worker.child.exitCode === null && worker.child.signalCode === null) {
    park(worker);
  } else {
    worker.child.kill('SIGKILL');
    // A fresh one starts now rather than when the next file comes: starting takes a second.
    if (idle.length + turns.busy - 1 < EXTRACTOR_LIMITS.processes) park(spawnWorker());
  }
  endTurn();
}

function park(worker: Worker): void {
  // An idle child must not keep this process alive, and goes away after a while.
  worker.child.unref();
  worker.child.channel?.unref();
  const leave = () => {
    clearTimeout(worker.idleTimer);
    const i = idle.indexOf(worker);
    if (i >= 0) idle.splice(i, 1);
  };
  worker.leave = leave;
  worker.idleTimer = setTimeout(() => {
    leave();
    worker.child.kill('SIGKILL');
  }, EXTRACTOR_LIMITS.idleMs);
  worker.idleTimer.unref();
  worker.child.once('exit', leave);
  idle.push(worker);
}

/** Resident bytes of a process, where the system tells (Linux); null elsewhere. */
function residentBytes(pid: number | undefined): number | null {
  if (pid === undefined || process.platform !== 'linux') return null;
  try {
    const kb = /VmRSS:\s*(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

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
  { owner = NO_OWNER }: ExtractionOwner = {},
): Promise<ExtractedText | TrainingText> {
  // Checks that need no parsing come first, and need no process.
  const format = acceptedFormat(file.name);
  const { worker, endTurn } = await acquire(owner);
  let reusable = false;
  try {
    try {
      await worker.ready;
    } catch (error) {
      throw unreadable(file.name, format, 'the reader could not be started', error);
    }
    const reply = await runJob(worker.child, file, mode);
    // A child that grew large gives its memory back by exiting.
    reusable = reply.rss < EXTRACTOR_LIMITS.rssBytes / 2;
    if (!reply.ok) throw new TextExtractionError(reply.code, file.name, reply.message);
    return reply.result;
  } catch (error) {
    if (error instanceof TextExtractionError) throw error;
    throw unreadable(file.name, format, error instanceof Error ? error.message : String(error), error);
  } finally {
    release(worker, reusable, endTurn);
  }
}

function runJob(child: ChildProcess, file: UploadedFile, mode: ExtractionMode): Promise<ChildReply> {
  const id = nextId++;
  const limitMs = extractionTimeLimitMs(file.data.length);
  return new Promise<ChildReply>((resolve, reject) => {
    const finish = (settle: () => void) => {
      clearTimeout(timer);
      clearInterval(watch);
      child.off('message', onMessage);
      child.off('exit', onExit);
      settle();
    };
    const fail = (reason: string) => {
      child.kill('SIGKILL');
      finish(() => reject(new Error(reason)));
    };
    const onMessage = (reply: ChildReply | 'ready') => {
      if (reply !== 'ready' && reply.id === id) finish(() => resolve(reply));
    };
    const onExit = () => finish(() => reject(new Error('it took more memory than a file may')));
    const timer = setTimeout(() => fail(`it took longer than ${Math.round(limitMs / 1000)} s to read`), limitMs);
    const watch = setInterval(() => {
      const rss = residentBytes(child.pid);
      if (rss !== null && rss > EXTRACTOR_LIMITS.rssBytes) fail('it took more memory than a file may');
    }, WATCH_MS);
    child.on('message', onMessage);
    child.once('exit', onExit);
    const request: ChildRequest = { id, mode, name: file.name, data: file.data };
    child.send(request, (error) => {
      if (error) fail('the reader could not be reached');
    });
  });
}
