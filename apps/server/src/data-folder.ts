// One process at a time owns a data folder on the embedded database: PGlite's files have no lock of
// their own, and a second process opening them (or closing them on its way out) destroys data.
// The owner holds <dataDir>/ownvoice.lock, a small file naming its process; a lock whose process
// is gone (a crash, a kill -9) is taken over, so no crash leaves a folder locked for good.
import { randomBytes } from 'node:crypto';
import {
  closeSync,
  linkSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

export const LOCK_FILE = 'ownvoice.lock';
/** Where the owner-only sockets of the embedded database and inference process live. */
export const socketsDir = (dataDir: string): string => path.join(dataDir, 'run');
/** Where uploads are streamed, and merged models built, while a request runs (one `upload-…` or `merge-…` folder each). */
export const uploadsTempDir = (dataDir: string): string => path.join(dataDir, 'tmp');
/** The prefixes of those folders: what a start clears when a crash left one. */
export const REQUEST_FOLDER_PREFIXES = { upload: 'upload-', merge: 'merge-' } as const;
/** A takeover guard older than this was left by a process that died inside the takeover. */
const TAKEOVER_GUARD_STALE_MS = 10_000;
/** How long to wait for another process's takeover to finish before giving up. */
const TAKEOVER_WAIT_MS = 3_000;

interface Holder {
  pid: number;
  host: string;
  /** The process's start time (Linux: clock ticks since boot), to tell a reused PID apart. */
  started: string | null;
  what: string;
  since: string;
  token: string;
}

export class DataFolderInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Pick<Holder, 'pid' | 'host' | 'what' | 'since'> | undefined,
    lockPath: string,
  ) {
    const who = holder
      ? `${holder.what} (process ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.since})`
      : 'another OwnVoice process';
    super(
      `The data folder ${dataDir} is in use by ${who}.\n` +
        'Only one OwnVoice process at a time may use a data folder on the embedded database: stop that one first ' +
        '(Ctrl-C in its terminal, or kill -TERM it), or point OWNVOICE_DATA_DIR at another folder.\n' +
        `If you are sure no OwnVoice process uses this folder, delete ${lockPath} and start again.`,
    );
    this.name = 'DataFolderInUseError';
  }
}

export interface DataFolderLock {
  readonly path: string;
  /** Gives the folder up (also done when the process exits). */
  release(): void;
}

/** Start time of a process, or null where the system does not say (not Linux, or no such process). */
function processStartTime(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may itself hold spaces.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readHolder(lockPath: string): Holder | undefined {
  try {
    const value = JSON.parse(readFileSync(lockPath, 'utf8')) as Holder;
    // A PID of 0 or below would name a process group, which kill() always finds.
    return Number.isInteger(value.pid) && value.pid > 0 && typeof value.host === 'string' ? value : undefined;
  } catch {
    return undefined;
  }
}

/** Whether the process that wrote the lock still runs. A lock from another machine counts as alive. */
function isAlive(holder: Holder): boolean {
  if (holder.host !== hostname()) return true;
  // Our own PID in the file is a restart that got the same one, as in a container.
  if (holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    // EPERM: it exists but belongs to another user.
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const started = processStartTime(holder.pid);
  return !(holder.started && started && started !== holder.started);
}

const sleepSync = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes the data folder for this process, or throws DataFolderInUseError when another live
 * process holds it. Synchronous, so nothing else in the process runs before the folder is ours.
 */
export function lockDataFolder(dataDir: string, what: string): DataFolderLock {
  mkdirSync(dataDir, { recursive: true });
  const lockPath = path.join(dataDir, LOCK_FILE);
  const guardPath = `${lockPath}.takeover`;
  const me: Holder = {
    pid: process.pid,
    host: hostname(),
    started: processStartTime(process.pid),
    what,
    since: new Date().toISOString(),
    token: randomBytes(8).toString('hex'),
  };
  // Written whole first and linked into place, so no one ever reads a half-written lock.
  const draft = `${lockPath}.${me.pid}.${me.token}`;
  writeFileSync(draft, `${JSON.stringify(me)}\n`, { mode: 0o644 });
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  try {
    for (;;) {
      try {
        createExclusively(draft, lockPath, me);
        break;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(lockPath);
      if (holder && isAlive(holder)) throw new DataFolderInUseError(dataDir, holder, lockPath);
      // Stale (or unreadable). Only one process may judge and remove it at a time, or two could
      // each remove the other's fresh lock.
      let guard: number;
      try {
        guard = openSync(guardPath, 'wx');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        if (Date.now() - guardMtime(guardPath) > TAKEOVER_GUARD_STALE_MS) rmSync(guardPath, { force: true });
        else if (Date.now() > deadline) throw new DataFolderInUseError(dataDir, holder, lockPath);
        else sleepSync(50);
        continue;
      }
      try {
        const again = readHolder(lockPath);
        if (again && isAlive(again)) throw new DataFolderInUseError(dataDir, again, lockPath);
        if (again?.token === holder?.token) rmSync(lockPath, { force: true });
      } finally {
        closeSync(guard);
        rmSync(guardPath, { force: true });
      }
    }
  } finally {
    rmSync(draft, { force: true });
  }

  let held = true;
  const release = () => {
    if (!held) return;
    held = false;
    process.off('exit', release);
    // Only our own lock: never one another process took over.
    if (readHolder(lockPath)?.token === me.token) {
      try {
        unlinkSync(lockPath);
      } catch {
        // Already gone.
      }
    }
  };
  process.on('exit', release);
  return { path: lockPath, release };
}

/** Creates the lock file, failing with EEXIST when there is one. */
function createExclusively(draft: string, lockPath: string, me: Holder): void {
  try {
    linkSync(draft, lockPath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Filesystems without hard links: create and write, with a moment where the file is empty.
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'EOPNOTSUPP' && code !== 'ENOSYS') throw error;
    writeFileSync(lockPath, `${JSON.stringify(me)}\n`, { flag: 'wx', mode: 0o644 });
  }
}

function guardMtime(guardPath: string): number {
  try {
    return statSync(guardPath).mtimeMs;
  } catch {
    return 0;
  }
}

/** Removes the request folders a crash left behind. Only the folder's owner may: uploads may be running otherwise. */
export function clearStaleUploads(dataDir: string): number {
  const root = uploadsTempDir(dataDir);
  let entries: string[];
  try {
    entries = readdirSync(root);
  } catch {
    return 0;
  }
  const stale = entries.filter((name) =>
    Object.values(REQUEST_FOLDER_PREFIXES).some((prefix) => name.startsWith(prefix)),
  );
  for (const name of stale) rmSync(path.join(root, name), { recursive: true, force: true });
  return stale.length;
}

/**
 * What every process that opens the database does first: on the embedded database, take the data
 * folder (throws DataFolderInUseError) and clear what a crash left in it. On PostgreSQL, several
 * processes sharing folders is the design, so nothing is locked.
 */
export function claimDataFolder(
  config: { dataDir: string; databaseUrl: string | undefined },
  what: string,
): DataFolderLock | undefined {
  if (config.databaseUrl) return undefined;
  const lock = lockDataFolder(config.dataDir, what);
  clearStaleUploads(config.dataDir);
  return lock;
}
