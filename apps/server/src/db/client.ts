// Opens the database: PGlite in-process (persisted under the data folder) by default, or a
// PostgreSQL server when DATABASE_URL is set. Both speak the same SQL and share migrations.
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema.js';

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type DatabaseKind = 'pglite' | 'postgres';

export interface DatabaseHandle {
  db: Database;
  kind: DatabaseKind;
  /** The connection pool, when on PostgreSQL (migrations take a lock on one of its clients). */
  pool?: pg.Pool;
  /**
   * A postgres:// URL for clients that speak the wire protocol (the job queue): the server's
   * own URL, or for PGlite a socket server on loopback, started on first call.
   */
  connectionString(): Promise<string>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'pglite'; dataDir: string | 'memory' }
  | {
      kind: 'postgres';
      url: string;
      maxConnections?: number;
      /** Told when an idle connection breaks (server restart, network); stderr by default. */
      onIdleError?: (error: Error) => void;
    };

export async function openDatabase(target: DatabaseTarget): Promise<DatabaseHandle> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({ connectionString: target.url, max: target.maxConnections ?? 10 });
    // An idle connection that breaks (the server restarts, a proxy drops it) is an 'error' event on
    // the pool; unheard, it would crash the process. The pool replaces the connection by itself.
    pool.on(
      'error',
      target.onIdleError ??
        ((error) => process.stderr.write(`database: an idle connection was lost (${error.message}); reconnecting\n`)),
    );
    // Fail at start with the server's own message rather than on the first request.
    const client = await pool.connect();
    client.release();
    return {
      db: drizzleNodePg(pool, { schema }),
      kind: 'postgres',
      pool,
      connectionString: async () => target.url,
      close: () => pool.end(),
    };
  }
  let client: PGlite;
  if (target.dataDir === 'memory') {
    client = new PGlite();
  } else {
    mkdirSync(target.dataDir, { recursive: true });
    client = new PGlite(target.dataDir);
  }
  await client.waitReady;
  let socket: Promise<PGLiteSocketServer> | undefined;
  return {
    db: drizzlePglite(client, { schema }),
    kind: 'pglite',
    connectionString: async () => {
      socket ??= (async () => {
        // Loopback only, on a free port: the job queue of this process is its only client.
        const server = new PGLiteSocketServer({ db: client, host: '127.0.0.1', port: 0, maxConnections: 8 });
        await server.start();
        return server;
      })();
      return `postgresql://postgres:postgres@${(await socket).getServerConn()}/postgres?sslmode=disable`;
    },
    close: async () => {
      if (socket) await (await socket).stop();
      await client.close();
    },
  };
}

/** Where PGlite keeps its files inside the service's data folder. */
export const pgliteDir = (dataDir: string): string => path.join(dataDir, 'pglite');
