// Vitest global setup for the PGlite project: builds one migrated embedded database per test run
// and leaves its dump in a private temporary folder. Creating a PGlite cluster takes about 3 s,
// and the server's test files open about 80 databases; starting each from this dump takes about 1 s.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../db/client.js';
import { runMigrations } from '../db/migrate.js';
import type * as schema from '../db/schema.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated PGlite dump that openTestDatabase starts from (absent: start empty). */
    pgliteTemplate?: string;
  }
}

export default async function setup(project: TestProject): Promise<() => void> {
  const folder = mkdtempSync(path.join(tmpdir(), 'ownvoice-pglite-template-'));
  const file = path.join(folder, 'migrated.tar');
  const handle = await openDatabase({ kind: 'pglite', dataDir: 'memory' });
  try {
    await runMigrations(handle);
    // drizzle's PGlite database carries its client; the handle's type is the drivers' common one.
    const { $client } = handle.db as PgliteDatabase<typeof schema> & { $client: PGlite };
    const dump = await $client.dumpDataDir('none');
    writeFileSync(file, Buffer.from(await dump.arrayBuffer()), { mode: 0o600 });
  } finally {
    await handle.close();
  }
  project.provide('pgliteTemplate', file);
  return () => rmSync(folder, { recursive: true, force: true });
}
