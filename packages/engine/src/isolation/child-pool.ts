// Runs untrusted work (an uploaded document, an imported Voice package) in separate Node
// processes. A hostile file can make a parser take minutes or gigabytes, and some failures (V8's
// "invalid size" and out-of-memory errors) abort the whole process they happen in, worker threads
// included. So each job runs in a child process with a small heap, watched for time and resident
// memory and killed past either; the caller gets an IsolatedJobError and this process is
// untouched. Children are reused while they behave. Turns at the processes are shared fairly
// between accounts (fair-queue.ts): nobody's slow files make another person's wait behind all of
// them.
//
// The child's side: a module that answers `{ id, reply, rss }` to each `{ id, job }` message it
// gets, after sending 'ready' once it has loaded (childSide below does both).
import { type ChildProcess, fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { FairQueue } from './fair-queue.js';

const STARTUP_MS = 60_000;
const WATCH_MS = 100;

export interface ChildPoolLimits {
  /** V8 heap of a child, in MB. */
  heapMb: number;
  /** Resident memory of a child (heap plus buffers); it is killed above this. */
  rssBytes: number;
  /** A child this large or larger after a job exits, giving its memory back (default: half of rssBytes). */
  keepRssBytes?: number;
  /** Children at once; further jobs wait their turn. */
  processes: number;
  /** An idle child exits after this long. */
  idleMs: number;
}

/** What a child answers for one job: its result and how large it had grown. */
export interface ChildAnswer<Reply> {
  id: number;
  reply: Reply;
  rss: number;
}

/** A job that did not come back: the child could not start, ran too long, grew too large or died. */
export class IsolatedJobError extends Error {}

interface Worker {
  child: ChildProcess;
  ready: Promise<void>;
  idleTimer?: NodeJS.Timeout;
  /** Takes it off the idle list when it exits while idle. */
  leave?: () => void;
}

/** Jobs with no owner named (the command line, a training in the worker) share one. */
const NO_OWNER = '';

export class ChildPool<Job, Reply> {
  private nextId = 1;
  private readonly idle: Worker[] = [];
  private readonly turns: FairQueue;

  /** `entry`: the child's script (a .mjs that loads its TypeScript source); `execArgv`: Node flags beside the heap's. */
  constructor(
    private readonly entry: string,
    private readonly limits: ChildPoolLimits,
    private readonly execArgv: readonly string[] = [],
  ) {
    this.turns = new FairQueue(limits.processes);
  }

  /**
   * Runs `job` in a child once it is `owner`'s turn. Throws IsolatedJobError, saying why in words
   * that finish "... because <reason>", when no answer came back within `timeLimitMs`.
   */
  async run(job: Job, { owner = NO_OWNER, timeLimitMs }: { owner?: string; timeLimitMs: number }): Promise<Reply> {
    const endTurn = await this.turns.take(owner);
    const worker = this.acquire();
    let reusable = false;
    try {
      try {
        await worker.ready;
      } catch {
        throw new IsolatedJobError('its process could not be started');
      }
      const answer = await this.send(worker.child, job, timeLimitMs);
      // A child that grew large gives its memory back by exiting.
      reusable = answer.rss < (this.limits.keepRssBytes ?? this.limits.rssBytes / 2);
      return answer.reply;
    } finally {
      this.release(worker, reusable, endTurn);
    }
  }

  private spawn(): Worker {
    const child = fork(this.entry, [], {
      execArgv: [`--max-old-space-size=${this.limits.heapMb}`, ...this.execArgv],
      serialization: 'advanced',
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
    });
    // Failures show up as exits and failed sends, handled where they matter.
    child.on('error', () => {});
    const ready = new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new Error('the child process did not start'));
      }, STARTUP_MS);
      child.once('message', () => {
        // Its first message says it has loaded.
        clearTimeout(timer);
        resolve();
      });
      child.once('exit', () => {
        clearTimeout(timer);
        reject(new Error('the child process exited on start'));
      });
    });
    ready.catch(() => {});
    return { child, ready };
  }

  private acquire(): Worker {
    const worker = this.idle.pop();
    if (!worker) return this.spawn();
    clearTimeout(worker.idleTimer);
    if (worker.leave) worker.child.off('exit', worker.leave);
    worker.child.ref();
    worker.child.channel?.ref();
    return worker;
  }

  private release(worker: Worker, reusable: boolean, endTurn: () => void): void {
    if (reusable && worker.child.exitCode === null && worker.child.signalCode === null) {
      this.park(worker);
    } else {
      worker.child.kill('SIGKILL');
      // A fresh one starts now rather than when the next job comes: starting takes a second.
      if (this.idle.length + this.turns.busy - 1 < this.limits.processes) this.park(this.spawn());
    }
    endTurn();
  }

  private park(worker: Worker): void {
    // An idle child must not keep this process alive, and goes away after a while.
    worker.child.unref();
    worker.child.channel?.unref();
    const leave = () => {
      clearTimeout(worker.idleTimer);
      const i = this.idle.indexOf(worker);
      if (i >= 0) this.idle.splice(i, 1);
    };
    worker.leave = leave;
    worker.idleTimer = setTimeout(() => {
      leave();
      worker.child.kill('SIGKILL');
    }, this.limits.idleMs);
    worker.idleTimer.unref();
    worker.child.once('exit', leave);
    this.idle.push(worker);
  }

  private send(child: ChildProcess, job: Job, limitMs: number): Promise<ChildAnswer<Reply>> {
    const id = this.nextId++;
    const rssLimit = this.limits.rssBytes;
    return new Promise<ChildAnswer<Reply>>((resolve, reject) => {
      const finish = (settle: () => void) => {
        clearTimeout(timer);
        clearInterval(watch);
        child.off('message', onMessage);
        child.off('exit', onExit);
        settle();
      };
      const fail = (reason: string) => {
        child.kill('SIGKILL');
        finish(() => reject(new IsolatedJobError(reason)));
      };
      const onMessage = (answer: ChildAnswer<Reply> | 'ready') => {
        if (answer !== 'ready' && answer.id === id) finish(() => resolve(answer));
      };
      const onExit = () => finish(() => reject(new IsolatedJobError('it took more memory than allowed')));
      const timer = setTimeout(() => fail(`it ran longer than ${Math.round(limitMs / 1000)} s`), limitMs);
      const watch = setInterval(() => {
        const rss = residentBytes(child.pid);
        if (rss !== null && rss > rssLimit) fail('it took more memory than allowed');
      }, WATCH_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      child.send({ id, job }, (error) => {
        if (error) fail('its process could not be reached');
      });
    });
  }
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

/**
 * The child's side of a pool: answers each job with `handle`'s reply, says 'ready' once loaded,
 * and exits when its parent goes. `handle` must not throw: a reply carries its own errors.
 */
export function childSide<Job, Reply>(handle: (job: Job) => Promise<Reply>): void {
  const send = (message: ChildAnswer<Reply> | 'ready') => process.send?.(message);
  process.on('message', async ({ id, job }: { id: number; job: Job }) => {
    const reply = await handle(job);
    send({ id, reply, rss: process.memoryUsage.rss() });
  });
  process.on('disconnect', () => process.exit(0));
  send('ready');
}
