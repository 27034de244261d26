// One process per data folder on the embedded database. A second server once closed PGlite's files
// under the first and, after the first crashed, most accounts were gone. Runs in the PGlite
// project only: with DATABASE_URL nothing is locked.
import { spawn } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { count } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import {
  claimDataFolder,
  DataFolderInUseError,
  LOCK_FILE,
  lockDataFolder,
  socketsDir,
  uploadsTempDir,
} from './data-folder.js';
import { openDatabase, pgliteDir } from './db/client.js';
import { users } from './db/schema.js';
import { INFERENCE_SOCKET } from './inference/supervisor.js';
import { type Child, childrenOfEachTest, startTs } from './test/processes.js';
import { newAccount } from './test/test-app.js';

let dataDir = '';
// After hooks run in reverse order: the children are gone before their folder is removed.
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
const children = childrenOfEachTest(afterEach);
const newDataDir = () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-folder-'));
  return dataDir;
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

function startServer(folder: string, port: number, env: NodeJS.ProcessEnv = {}): Child {
  const child = startTs('src/main.ts', [], {
    ...env,
    OWNVOICE_DATA_DIR: folder,
    PORT: String(port),
    HOST: '127.0.0.1',
    OWNVOICE_BASE_MODEL: 'tiny',
    OWNVOICE_IN_PROCESS_WORKER: 'false',
    LOG_LEVEL: 'info',
  });
  children.push(child);
  return child;
}

/** A browser's sign-up or login against a running server. */
async function send(port: number, url: string, body: unknown): Promise<number> {
  const base = `http://127.0.0.1:${port}`;
  const csrf = await fetch(`${base}/api/csrf-token`);
  const cookie = (csrf.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const { csrfToken } = (await csrf.json()) as { csrfToken: string };
  const res = await fetch(`${base}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrfToken },
    body: JSON.stringify(body),
  });
  return res.status;
}

function holdFolder(folder: string): Child {
  const child = startTs('src/test/hold-data-folder.ts', [folder], {});
  children.push(child);
  return child;
}

describe('the data folder', () => {
  it('refuses a second server, which leaves without touching it; the first keeps serving and its data', async () => {
    const folder = newDataDir();
    // A crash left an upload and a merged model behind: the server that takes the folder clears them.
    const stale = path.join(uploadsTempDir(folder), 'upload-0123456789abcdef');
    mkdirSync(stale, { recursive: true });
    writeFileSync(path.join(stale, 'part'), 'half an upload');
    const staleMerge = path.join(uploadsTempDir(folder), 'merge-Ab12Cd');
    mkdirSync(staleMerge);
    writeFileSync(path.join(staleMerge, 'model.gguf'), 'half a model');
    writeFileSync(path.join(uploadsTempDir(folder), 'keep.txt'), 'not an upload');

    const port = await freePort();
    const first = startServer(folder, port);
    await first.waitFor('OwnVoice is running', 90_000);
    expect(existsSync(stale)).toBe(false);
    expect(existsSync(staleMerge)).toBe(false);
    expect(existsSync(path.join(uploadsTempDir(folder), 'keep.txt'))).toBe(true);
    const account = newAccount('first');
    expect(await send(port, '/api/auth/register', account)).toBe(201);
    // An upload of the first server's, running while the second one starts.
    const running = path.join(uploadsTempDir(folder), 'upload-fedcba9876543210');
    mkdirSync(running);

    const second = startServer(folder, await freePort());
    const code = await Promise.race([
      second.exited,
      new Promise<'still running'>((resolve) => setTimeout(() => resolve('still running'), 60_000)),
    ]);
    expect(code, second.output()).toBe(1);
    expect(second.output()).toContain(
      `The data folder ${folder} is in use by the OwnVoice server (process ${first.process.pid}`,
    );
    expect(second.output()).toMatch(/stop that one first/);
    expect(existsSync(running)).toBe(true);

    // The first goes on serving from the same files.
    expect(await send(port, '/api/auth/login', { email: account.email, password: account.password })).toBe(200);
    expect(await send(port, '/api/auth/register', newAccount('later'))).toBe(201);
    first.process.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    // It gave the folder up, and every account is there.
    expect(existsSync(path.join(folder, LOCK_FILE))).toBe(false);
    const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDir(folder) });
    try {
      expect(await database.db.select({ n: count() }).from(users)).toEqual([{ n: 2 }]);
    } finally {
      await database.close();
    }
  }, 240_000);

  it('is refused while a live process holds it, and taken over once that process is killed', async () => {
    const folder = newDataDir();
    const holder = holdFolder(folder);
    await holder.waitFor('locked');
    let refusal: unknown;
    try {
      lockDataFolder(folder, 'a test');
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(DataFolderInUseError);
    expect((refusal as Error).message).toContain(`${folder} is in use by a test holder (process ${holder.process.pid}`);

    // kill -9 leaves its lock file behind; the next process takes the folder all the same.
    holder.process.kill('SIGKILL');
    await holder.exited;
    expect(existsSync(path.join(folder, LOCK_FILE))).toBe(true);
    const lock = lockDataFolder(folder, 'a test');
    expect(JSON.parse(readFileSync(lock.path, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(existsSync(lock.path)).toBe(false);
  }, 120_000);

  it('takes over a lock whose process is gone, and clears only upload folders', async () => {
    const folder = newDataDir();
    const gone = spawn(process.execPath, ['-e', '']);
    await new Promise((resolve) => gone.on('exit', resolve));
    writeFileSync(
      path.join(folder, LOCK_FILE),
      JSON.stringify({
        pid: gone.pid,
        host: hostname(),
        started: null,
        what: 'a crashed server',
        since: '',
        token: 'x',
      }),
    );
    mkdirSync(path.join(uploadsTempDir(folder), 'upload-aaaaaaaaaaaaaaaa', 'nested'), { recursive: true });
    mkdirSync(path.join(uploadsTempDir(folder), 'exports'));

    const lock = claimDataFolder({ dataDir: folder, databaseUrl: undefined }, 'a test');
    expect(lock).toBeDefined();
    expect(existsSync(path.join(uploadsTempDir(folder), 'upload-aaaaaaaaaaaaaaaa'))).toBe(false);
    expect(existsSync(path.join(uploadsTempDir(folder), 'exports'))).toBe(true);
    lock?.release();

    // On PostgreSQL several processes share folders: nothing is locked or cleared.
    mkdirSync(path.join(uploadsTempDir(folder), 'upload-bbbbbbbbbbbbbbbb'));
    expect(claimDataFolder({ dataDir: folder, databaseUrl: 'postgres://db/ownvoice' }, 'a test')).toBeUndefined();
    expect(existsSync(path.join(uploadsTempDir(folder), 'upload-bbbbbbbbbbbbbbbb'))).toBe(true);
    expect(existsSync(path.join(folder, LOCK_FILE))).toBe(false);
  });

  it('keeps everything the server writes private to its user, whatever the umask, and warns of a folder open to others', async () => {
    const root = newDataDir();
    // Made by the server: private from the start.
    const folder = path.join(root, 'data');
    // Made by someone else, open to all: left as it is, with a warning naming the fix.
    const artifacts = path.join(root, 'artifacts');
    mkdirSync(artifacts);
    chmodSync(artifacts, 0o755);
    const port = await freePort();
    // The loosest umask there is, inherited by the server as a shell would hand it down.
    const saved = process.umask(0);
    let server: Child;
    try {
      server = startServer(folder, port, { OWNVOICE_ARTIFACT_DIR: artifacts });
    } finally {
      process.umask(saved);
    }
    await server.waitFor('OwnVoice is running', 90_000);
    expect(server.output()).toContain(`The artifact folder ${artifacts} is open to other users`);
    expect(server.output()).toContain(`chmod -R go-rwx '${artifacts}'`);
    expect(server.output()).not.toContain('The data folder');
    // An account in the write-ahead log, and the inference process's socket beside the database's.
    expect(await send(port, '/api/auth/register', newAccount('private'))).toBe(201);
    await expect
      .poll(() => existsSync(path.join(socketsDir(folder), INFERENCE_SOCKET)), { timeout: 60_000 })
      .toBe(true);

    const open: string[] = [];
    const walk = (at: string) => {
      const stat = lstatSync(at);
      if ((stat.mode & 0o077) !== 0) open.push(`${path.relative(root, at)} ${(stat.mode & 0o777).toString(8)}`);
      if (stat.isDirectory()) for (const entry of readdirSync(at)) walk(path.join(at, entry));
    };
    walk(folder);
    for (const entry of readdirSync(artifacts)) walk(path.join(artifacts, entry));
    expect(readdirSync(path.join(folder, 'pglite')).length).toBeGreaterThan(10);
    expect(open).toEqual([]);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    expect(statSync(artifacts).mode & 0o777).toBe(0o755);
  }, 180_000);
});
