// `npm run admin -- create-super-admin`, run as the operator runs it: a process of its own on the
// data folder, the password piped in. PGlite only: it works on a data folder of its own.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { openDatabase, pgliteDir } from './db/client.js';
import { childrenOfEachTest, startTs } from './test/processes.js';

let dataDir = '';
// After hooks run in reverse order: the children are gone before their folder is removed.
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));
const children = childrenOfEachTest(afterEach);

async function admin(args: string[], password: string): Promise<{ code: number | null; output: string }> {
  const child = startTs('src/admin.ts', args, { OWNVOICE_DATA_DIR: dataDir, DATABASE_URL: '' }, password);
  children.push(child);
  const code = await child.exited;
  return { code, output: child.output() };
}

/** Logs in through the real API on the folder; returns the account's role, or the status code. */
async function roleAfterLogin(email: string, password: string): Promise<string | number> {
  const database = await openDatabase({ kind: 'pglite', dataDir: pgliteDir(dataDir) });
  const app = await buildApp({ config: loadConfig({ OWNVOICE_DATA_DIR: dataDir }), database, logger: false });
  try {
    const csrf = await app.inject({ method: 'GET', url: '/api/csrf-token' });
    const headers = {
      cookie: String(csrf.headers['set-cookie']).split(';')[0] ?? '',
      'x-csrf-token': csrf.json().csrfToken,
    };
    const res = await app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: { email, password } });
    return res.statusCode === 200 ? res.json().user.role : res.statusCode;
  } finally {
    await app.close();
    await database.close();
  }
}

describe('npm run admin -- create-super-admin', () => {
  it('creates the first super admin with the password from stdin, and promotes only with the password', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-admin-'));
    const created = await admin(['create-super-admin', '--email', ' Owner@Example.com'], 'Passw0rdOk\n');
    expect(created.code, created.output).toBe(0);
    expect(created.output).toContain('Created owner (owner@example.com) as super admin.');
    expect(await roleAfterLogin('owner@example.com', 'Passw0rdOk')).toBe('super_admin');

    // Naming an existing account's e-mail is not enough: its password is.
    const guessed = await admin(['create-super-admin', '--email', 'owner@example.com'], 'Wrong1Password\n');
    expect(guessed.code).toBe(1);
    expect(guessed.output).toContain('exists, and that is not its password');
    const again = await admin(['create-super-admin', '--email', 'OWNER@example.com'], 'Passw0rdOk\n');
    expect(again.code, again.output).toBe(0);
    expect(again.output).toContain('was already a super admin');

    const usage = await admin(['create-super-admin', '--email', 'not-an-address'], 'Passw0rdOk\n');
    expect(usage.code).toBe(2);
    expect(usage.output).toContain('Usage: npm run admin -- create-super-admin --email');
  }, 180_000);

  it('refuses while the server uses the data folder, and asks to stop it first', async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-admin-'));
    const holder = startTs('src/test/hold-data-folder.ts', [dataDir], {});
    children.push(holder);
    await holder.waitFor('locked');
    const refused = await admin(['create-super-admin', '--email', 'owner@example.com'], 'Passw0rdOk\n');
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`The data folder ${dataDir} is in use`);
    expect(refused.output).toContain('Stop the server first');
  }, 120_000);
});
