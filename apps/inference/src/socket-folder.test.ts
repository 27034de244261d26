import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareSocketPath } from './socket-folder.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'ownvoice-socket-folder-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('prepareSocketPath', () => {
  it('takes an owner-only folder, and replaces a socket left there by a process that died', async () => {
    const folder = path.join(dir, 'private');
    mkdirSync(folder, { mode: 0o700 });
    const socket = path.join(folder, 'inference.sock');
    prepareSocketPath(socket);
    const stale = createServer();
    await new Promise<void>((resolve) => stale.listen(socket, resolve));
    // Closed without removing its file, as a killed process leaves it.
    stale.close();
    writeFileSync(path.join(folder, 'keep.txt'), 'x');
    expect(() => prepareSocketPath(socket)).not.toThrow();
  });

  it('refuses a folder others may enter, a missing folder and a file in the socket’s place, saying what to do', () => {
    const open = path.join(dir, 'open');
    mkdirSync(open);
    chmodSync(open, 0o755);
    expect(() => prepareSocketPath(path.join(open, 'inference.sock'))).toThrow(/open to other users.*chmod 700/);
    expect(() => prepareSocketPath(path.join(dir, 'missing', 'inference.sock'))).toThrow(/mkdir -m 700/);
    const folder = path.join(dir, 'taken');
    mkdirSync(folder, { mode: 0o700 });
    writeFileSync(path.join(folder, 'inference.sock'), 'not a socket');
    expect(() => prepareSocketPath(path.join(folder, 'inference.sock'))).toThrow(/is not a socket/);
  });
});
