// Opens the database: PGlite in-process (persisted under the data folder) by default, or a
// PostgreSQL server when DATABASE_URL is set. Both speak the same SQL and share migrations.
import { chmodSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';
import { drizzle as drizzleNodePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { makePrivate } from '../security/private-files.js';
import { privateSocketPlace } from '../security/private-socket.js';
import { PGliteForDrizzle } from './pglite-for-drizzle.js';
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
   * own URL, or for PGlite a socket server on a Unix socket only this OS user can reach, started
   * on first call.
   */
  connectionString(): Promise<string>;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | {
      kind: 'pglite';
      dataDir: string | 'memory';
      /**
       * The folder for the wire-protocol socket, made owner-only; a private temporary folder when
       * absent (or when the path is too long for a socket). The caller must own it: a socket
       * left there by a crash is replaced.
       */
      socketDir?: string;
      /**
       * A dump (`dumpDataDir`) to start from instead of a new, empty database: PGlite then skips
       * creating the cluster, which takes seconds. Tests start each database from a migrated one.
       */
      loadDataDir?: Blob;
    }
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
  let client: PGliteForDrizzle;
  if (target.dataDir === 'memory') {
    client = new PGliteForDrizzle(target.loadDataDir ? { loadDataDir: target.loadDataDir } : undefined);
  } else {
    mkdirSync(target.dataDir, { recursive: true });
    client = new PGliteForDrizzle(target.dataDir);
  }
  await client.waitReady;
  // Its files are written with modes of its own, past the umask (security/private-files.ts).
  if (target.dataDir !== 'memory') makePrivate(target.dataDir);
  let socket: ReturnType<typeof startSocketServer> | undefined;
  return {
    db: drizzlePglite(client, { schema }),
    kind: 'pglite',
    connectionString: async () => {
      socket ??= startSocketServer(client, target.socketDir);
      // pg reads a host that is a folder as the Unix socket <folder>/.s.PGSQL.5432.
      return `postgresql:///postgres?host=${encodeURIComponent((await socket).dir)}&user=postgres&sslmode=disable`;
    },
    close: async () => {
      const started = await socket?.catch(() => undefined);
      if (started) {
        await started.server.stop();
        started.remove();
      }
      await client.close();
    },
  };
}

const SOCKET_NAME = '.s.PGSQL.5432';

/**
 * PGlite accepts any user and password on its wire protocol, so the socket itself is the only
 * guard: a Unix socket in a folder only this OS user may enter, never a TCP port another local
 * process could reach.
 */
async function startSocketServer(
  client: PGliteForDrizzle,
  socketDir: string | undefined,
): Promise<{ server: PGLiteSocketServer; dir: string; remove(): void }> {
  const place = privateSocketPlace(socketDir, SOCKET_NAME);
  const server = new PGLiteSocketServer({ db: client, path: place.socketPath, maxConnections: 8 });
  await server.start();
  chmodSync(place.socketPath, 0o600);
  return { server, dir: place.dir, remove: place.remove };
}

/** Where PGlite keeps its files inside the service's data folder. */
export const pgliteDir = (dataDir: string): string => path.join(dataDir, 'pglite');
