// Runs in the PGlite project only (see vitest.config.ts): PostgreSQL keeps data by nature.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../app.js';
import { loadConfig } from '../config.js';
import { newAccount } from '../test/test-app.js';
import { openDatabase } from './client.js';
import { runMigrations } from './migrate.js';

describe('the embedded database (PGlite)', () => {
  it('keeps accounts across a restart of the service', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'ownvoice-data-'));
    const config = loadConfig({ OWNVOICE_DATA_DIR: dataDir });
    const account = newAccount('persist');
    try {
      const start = async () => {
        const database = await openDatabase({ kind: 'pglite', dataDir: path.join(dataDir, 'pglite') });
        await runMigrations(database);
        const app = await buildApp({ config, database, logger: false });
        const stop = async () => {
          await app.close();
          await database.close();
        };
        return { app, stop };
      };
      const first = await start();
      const csrf = await first.app.inject({ method: 'GET', url: '/api/csrf-token' });
      const headers = {
        cookie: String(csrf.headers['set-cookie']).split(';')[0] ?? '',
        'x-csrf-token': csrf.json().csrfToken,
      };
      const reg = await first.app.inject({ method: 'POST', url: '/api/auth/register', headers, payload: account });
      expect(reg.statusCode).toBe(201);
      await first.stop();

      const second = await start();
      const res = await second.app.inject({ method: 'POST', url: '/api/auth/login', headers, payload: account });
      expect(res.statusCode).toBe(200);
      expect(res.json().user.username).toBe(account.username);
      await second.stop();
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
