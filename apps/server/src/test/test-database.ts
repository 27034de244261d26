// A real database per test file: PGlite in memory by default, or a fresh database on the
// PostgreSQL server at TEST_DATABASE_URL when OWNVOICE_TEST_DB=postgres (the CI run).
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';

export const testDatabaseKind = (): 'pglite' | 'postgres' =>
  process.env.OWNVOICE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

export async function openTestDatabase(
  options: {
    onIdleError?: (error: Error) => void;
    /** Migrations to apply instead of the project's (a test of one migration starts below it). */
    migrationsFolder?: string;
  } = {},
): Promise<DatabaseHandle> {
  if (testDatabaseKind() === 'pglite') {
    // From the run's migrated dump (pglite-template.setup.ts) unless the test brings its own
    // migrations; the migrator then finds nothing left to apply. Benches run outside Vitest.
    const template = options.migrationsFolder || !process.env.VITEST ? undefined : inject('pgliteTemplate');
    const loadDataDir = template ? new Blob([readFileSync(template)]) : undefined;
    const handle = await openDatabase({ kind: 'pglite', dataDir: 'memory', loadDataDir });
    await runMigrations(handle, options.migrationsFolder);
    return handle;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('OWNVOICE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const name = `ownvoice_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({
    kind: 'postgres',
    url: url.toString(),
    maxConnections: 5,
    // Closing drops the database WITH (FORCE), which ends its idle connections by design.
    onIdleError: options.onIdleError ?? (() => {}),
  });
  await runMigrations(handle, options.migrationsFolder);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      const cleanup = new pg.Client({ connectionString: serverUrl });
      await cleanup.connect();
      await cleanup.query(`drop database if exists ${name} with (force)`);
      await cleanup.end();
    },
  };
}
