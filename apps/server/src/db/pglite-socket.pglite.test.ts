// The embedded database speaks the wire protocol to the job queue. PGlite accepts any password, so
// the socket must be one that only this OS user can reach, and the job queue must still work on it.
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { socketsDir } from '../data-folder.js';
import { type DatabaseHandle, openDatabase, pgliteDir } from './client.js';
import { runMigrations } from './migrate.js';

const NOBODY = 65_534;
const canSwitchUser = process.platform !== 'win32' && process.getuid?.() === 0;

let handle: DatabaseHandle | undefined;
let dataDir: string | undefined;
afterEach(async () => {
  await handle?.close();
  handle = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

/**
 * Connects as the OS user `uid` to where `url` points (a Unix socket's folder, or a host and port)
 * and asks for the accounts over the wire protocol, with a made-up password. The child uses only
 * Node's own modules: `nobody` may not be able to read this checkout's node_modules.
 */
function readAs(uid: number, url: string): Promise<string> {
  const script = `
    const net = require('node:net');
    const url = new URL(process.env.URL);
    const folder = url.searchParams.get('host');
    const socket = folder ? net.connect({ path: folder + '/.s.PGSQL.5432' }) : net.connect({ host: url.hostname, port: Number(url.port) });
    const message = (type, body) => {
      const length = Buffer.alloc(4);
      length.writeInt32BE(body.length + 4);
      return Buffer.concat([type ? Buffer.from(type) : Buffer.alloc(0), length, body]);
    };
    const cstr = (text) => Buffer.from(text + '\\0');
    socket.setTimeout(5000, () => { console.log('REFUSED timeout'); process.exit(1); });
    socket.on('error', (e) => { console.log('REFUSED ' + (e.code || e.message)); process.exit(1); });
    socket.on('connect', () => {
      const version = Buffer.alloc(4);
      version.writeInt32BE(196608);
      socket.write(message('', Buffer.concat([version, cstr('user'), cstr('postgres'), cstr('password'), cstr('not-the-password'), cstr('database'), cstr('postgres'), Buffer.from([0])])));
    });
    let buffered = Buffer.alloc(0);
    socket.on('data', (chunk) => {
      buffered = Buffer.concat([buffered, chunk]);
      while (buffered.length >= 5 && buffered.length >= 1 + buffered.readInt32BE(1)) {
        const type = String.fromCharCode(buffered[0]);
        buffered = buffered.subarray(1 + buffered.readInt32BE(1));
        if (type === 'Z' && !socket.asked) {
          socket.asked = true;
          socket.write(message('Q', cstr('select count(*)::int as n from users')));
        } else if (type === 'D') {
          console.log('READ accounts');
          process.exit(0);
        } else if (type === 'E') {
          console.log('REFUSED by the server');
          process.exit(1);
        }
      }
    });`;
  const child = spawn(process.execPath, ['-e', script], {
    uid,
    gid: uid,
    cwd: '/',
    env: { PATH: process.env.PATH, URL: url },
  });
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr.on('data', (d: Buffer) => {
    out += d.toString();
  });
  // A Node that `uid` may not run (one under /root, as npx installs) fails to spawn: say so rather
  // than wait for an exit that never comes, and never read that as a refusal.
  return new Promise((resolve) => {
    child.on('error', (error: NodeJS.ErrnoException) =>
      resolve(
        `NOT RUN: user ${uid} cannot run ${process.execPath} (${error.code}); run the tests with a Node every user can read`,
      ),
    );
    child.on('exit', () => resolve(out.trim()));
  });
}

describe("the embedded database's socket", () => {
  it('is a Unix socket in an owner-only folder, not a port, and the owner can use it', async () => {
    handle = await openDatabase({ kind: 'pglite', dataDir: 'memory' });
    await runMigrations(handle);
    const url = await handle.connectionString();
    const folder = new URL(url).searchParams.get('host') ?? '';
    expect(path.isAbsolute(folder), url).toBe(true);
    expect(statSync(folder).mode & 0o077).toBe(0);
    expect(statSync(path.join(folder, '.s.PGSQL.5432')).mode & 0o077).toBe(0);
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect((await client.query('select count(*)::int as n from users')).rows).toEqual([{ n: 0 }]);
    await client.end();
    await handle.close();
    handle = undefined;
    // The private folder goes with the database.
    expect(() => statSync(folder)).toThrow();
  });

  it.skipIf(!canSwitchUser)('refuses another local account whatever password it gives', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-socket-'));
    // An ordinary, world-readable data folder: only the socket's own folder keeps others out.
    chmodSync(dataDir, 0o755);
    handle = await openDatabase({
      kind: 'pglite',
      dataDir: pgliteDir(dataDir),
      socketDir: socketsDir(dataDir),
    });
    await runMigrations(handle);
    const url = await handle.connectionString();
    expect(new URL(url).searchParams.get('host')).toBe(socketsDir(dataDir));
    const result = await readAs(NOBODY, url);
    expect(result).toMatch(/^REFUSED (EACCES|EPERM)/);
    // The owner still reads.
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    expect((await client.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    await client.end();
  });

  it('replaces a socket a crash left in the data folder', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-socket-'));
    const first = await openDatabase({ kind: 'pglite', dataDir: 'memory', socketDir: socketsDir(dataDir) });
    await first.connectionString();
    // Not closed: the socket file stays behind, as after a kill -9 (its server is stopped by hand).
    const second = await openDatabase({ kind: 'pglite', dataDir: 'memory', socketDir: socketsDir(dataDir) });
    try {
      const client = new pg.Client({ connectionString: await second.connectionString() });
      await client.connect();
      expect((await client.query('select 2 as two')).rows).toEqual([{ two: 2 }]);
      await client.end();
    } finally {
      await second.close();
      await first.close().catch(() => {});
    }
  });
});
