// One lock per account for work that reads another system and then writes ours: billing reads the
// payment provider and applies what it read, so two such runs for one account must not overlap,
// or the one that read older state could commit last (docs/decisions/0020). A database row lock
// cannot be held across the provider's answer on PGlite (one connection serves the process), so:
// in this process, a queue per key; on PostgreSQL also a session advisory lock, so several
// servers agree. The advisory locks live on a small pool of their own: a holder's own queries use
// the main pool, so holders can never starve each other of connections.
import pg from 'pg';
import type { DatabaseHandle } from './client.js';

export interface AccountLock {
  /** Runs `work` while no other run for `key` does, in this process or (on PostgreSQL) any other. */
  run<T>(key: string, work: () => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** Advisory locks of this kind are taken on hashtextextended(key, LOCK_SEED), a 64-bit space. */
const LOCK_SEED = 20;
const LOCK_POOL_SIZE = 4;

export function createAccountLock(database: Pick<DatabaseHandle, 'kind' | 'connectionString'>): AccountLock {
  const local = new ProcessLocks();
  if (database.kind === 'pglite') return { run: (key, work) => local.run(key, work), close: async () => {} };
  let pool: Promise<pg.Pool> | undefined;
  const lockPool = () =>
    (pool ??= database.connectionString().then((url) => {
      const created = new pg.Pool({ connectionString: url, max: LOCK_POOL_SIZE });
      created.on('error', () => {}); // A lost idle connection held no lock; the pool replaces it.
      return created;
    }));
  return {
    run: (key, work) =>
      local.run(key, async () => {
        const client = await (await lockPool()).connect();
        try {
          await client.query('select pg_advisory_lock(hashtextextended($1, $2))', [key, LOCK_SEED]);
          try {
            return await work();
          } finally {
            await client.query('select pg_advisory_unlock(hashtextextended($1, $2))', [key, LOCK_SEED]);
          }
        } finally {
          client.release();
        }
      }),
    close: async () => {
      if (pool) await (await pool).end();
    },
  };
}

/** A queue per key in this process: each run starts when the one before it for the key has ended. */
export class ProcessLocks {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = before.then(() => mine);
    this.tails.set(key, tail);
    await before;
    try {
      return await work();
    } finally {
      release();
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
