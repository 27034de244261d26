// What the load bench stands on: the built web app, a PostgreSQL server when one can be had,
// and the child process serving the routes under load (bench/load-server.ts).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SERVER_DIR, startTs } from '../src/test/processes.js';
import type { LoadServerInfo, MemorySample } from './load-server.js';

const REPO_DIR = path.resolve(SERVER_DIR, '../..');
export const WEB_DIR = path.join(REPO_DIR, 'apps/web/dist');

/** The built web app's folder, building it first when there is none (a few seconds). */
export function builtWebApp(): string | undefined {
  if (existsSync(path.join(WEB_DIR, 'index.html'))) return WEB_DIR;
  console.log('The web app is not built: building it (npm run build -w apps/web) for the index page row.');
  const built = spawnSync('npm', ['run', 'build', '--silent', '-w', 'apps/web'], { cwd: REPO_DIR, stdio: 'ignore' });
  if (built.status === 0 && existsSync(path.join(WEB_DIR, 'index.html'))) return WEB_DIR;
  console.log('  the build failed: the index page row is skipped (run `npm run build -w apps/web` to see why).');
  return undefined;
}

export interface Postgres {
  url: string;
  stop(): void;
}

/**
 * TEST_DATABASE_URL when set; otherwise a throwaway server from Debian's package through
 * scripts/postgres-test-server.sh (as `npm test` starts one); undefined when neither exists.
 */
export function postgresServer(): Postgres | undefined {
  const given = process.env.TEST_DATABASE_URL;
  if (given) return { url: given, stop: () => {} };
  const script = path.join(REPO_DIR, 'scripts/postgres-test-server.sh');
  if (!existsSync('/usr/lib/postgresql')) return undefined;
  const env = { ...process.env, PG_TEST_DIR: mkdtempSync(path.join(tmpdir(), 'ownvoice-pg-bench.')) };
  try {
    const url = execFileSync('bash', [script, 'start'], { env, encoding: 'utf8' }).trim();
    return { url, stop: () => execFileSync('bash', [script, 'stop'], { env, stdio: 'ignore' }) };
  } catch (error) {
    console.log(`PostgreSQL could not be started (${(error as Error).message.split('\n')[0]}): PGlite only.`);
    return undefined;
  }
}

export interface LoadServer {
  info: LoadServerInfo;
  /** Asks the child for a memory sample (taken after a full garbage collection). */
  sampleMemory(): void;
  /** The child's memory samples taken between two times (Date.now()). */
  memoryBetween(from: number, to: number): MemorySample[];
  stop(): Promise<void>;
}

/**
 * Starts bench/load-server.ts on the given database. OWNVOICE_BENCH_CPU_PROF=<folder> writes a
 * CPU profile of that process there (node --cpu-prof) when it stops.
 */
export async function startLoadServer(
  postgresUrl: string | undefined,
  webDir: string | undefined,
): Promise<LoadServer> {
  const profileDir = process.env.OWNVOICE_BENCH_CPU_PROF;
  const child = startTs(
    'bench/load-server.ts',
    [],
    {
      OWNVOICE_TEST_DB: postgresUrl ? 'postgres' : 'pglite',
      TEST_DATABASE_URL: postgresUrl ?? '',
      OWNVOICE_WEB_DIR: webDir ?? '',
    },
    undefined,
    ['--expose-gc', ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profileDir)}`] : [])],
  );
  const stop = async () => {
    if (child.process.exitCode === null && child.process.signalCode === null) child.process.kill('SIGTERM');
    await child.exited;
  };
  try {
    await child.waitFor(/^ready .*\n/m, 120_000);
  } catch (error) {
    await stop();
    throw error;
  }
  const lines = () => child.output().split('\n');
  const info = JSON.parse(
    lines()
      .find((l) => l.startsWith('ready '))
      ?.slice(6) ?? '{}',
  ) as LoadServerInfo;
  return {
    info,
    sampleMemory: () => child.process.kill('SIGUSR2'),
    memoryBetween: (from, to) =>
      lines()
        .filter((l) => l.startsWith('memory '))
        .map((l) => JSON.parse(l.slice(7)) as MemorySample)
        .filter((m) => m.t >= from && m.t <= to),
    stop,
  };
}
