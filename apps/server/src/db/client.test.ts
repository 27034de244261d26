// On PostgreSQL, an idle pooled connection that the server ends (a restart, a proxy timeout) must
// not crash the service: the pool reports it and the next query opens a fresh connection.
import { describe, expect, it } from 'vitest';
import { openTestDatabase, testDatabaseKind } from '../test/test-database.js';

describe('the PostgreSQL pool', () => {
  it.skipIf(testDatabaseKind() !== 'postgres')('survives idle connections ended by the server', async () => {
    const lost: Error[] = [];
    const handle = await openTestDatabase({ onIdleError: (error) => lost.push(error) });
    const pool = handle.pool;
    if (!pool) throw new Error('a PostgreSQL handle has a pool');
    try {
      // Several idle connections in the pool.
      await Promise.all([1, 2, 3].map(() => pool.query('select pg_sleep(0.05)')));
      const ended = await pool.query(
        'select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()',
      );
      expect(ended.rows.length).toBeGreaterThan(0);
      await expect.poll(() => lost.length).toBeGreaterThan(0);
      expect(lost[0]?.message).toMatch(/terminating connection/);
      // The service goes on: the next query gets a fresh connection.
      expect((await pool.query('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await handle.close();
    }
  });
});
