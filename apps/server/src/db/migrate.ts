// Applies the generated migrations at start. On PostgreSQL an advisory lock keeps several
// servers starting at once from applying the same migration twice.
import { fileURLToPath } from 'node:url';
import type { NodePgDatabase } from 'drizzle-orm/node-postgres';
import { migrate as migrateNodePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgliteDatabase } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import type { DatabaseHandle } from './client.js';
import type * as schema from './schema.js';

const MIGRATION_LOCK_KEY = 7_301_943_210;

/** Migrations sit beside this module in source, and beside the bundle in dist/. */
export const defaultMigrationsFolder = (): string => fileURLToPath(new URL('./migrations', import.meta.url));

export async function runMigrations(
  handle: DatabaseHandle,
  migrationsFolder = defaultMigrationsFolder(),
): Promise<void> {
  if (handle.kind === 'pglite') {
    await migratePglite(handle.db as PgliteDatabase<typeof schema>, { migrationsFolder });
    return;
  }
  const db = handle.db as NodePgDatabase<typeof schema>;
  // A session-level lock on one pooled connection, held while the migrator runs on others.
  if (!handle.pool) throw new Error('a PostgreSQL handle must carry its pool');
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
    try {
      await migrateNodePg(db, { migrationsFolder });
    } finally {
      await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
    }
  } finally {
    client.release();
  }
}
