// `npm run bench` (server part, after Convert) or `npm run bench:load -w apps/server`: the API
// under load, on PGlite and, where PostgreSQL can be had (TEST_DATABASE_URL, or Debian's package
// through scripts/postgres-test-server.sh), on PostgreSQL.
//   1. the load table (bench/load-table.ts): a bare Fastify route beside OwnVoice's health, me,
//      Voice list and index page, 50 connections, interleaved rounds, ratios to the bare route
//   2. the soak (bench/soak.ts): several users signing in, reading and renaming for a minute;
//      no errors, and the server's memory at the end within 10% of early in the run
// The servers run in a child process (bench/load-server.ts), autocannon in this one.
// OWNVOICE_BENCH_LOAD_SECONDS (default 10) is each run's length, OWNVOICE_BENCH_SOAK_SECONDS
// (default 60) the soak's, OWNVOICE_BENCH_ROUNDS (default 3, at least 3) the rounds;
// OWNVOICE_BENCH_CPU_PROF=<folder> writes a CPU profile of the server process per database.
// Not a test: figures depend on the machine; the ratios are what to compare across machines.
import { MIN_ROUNDS } from '@ownvoice/engine/bench/stats';
import { builtWebApp, postgresServer, startLoadServer } from './load-setup.js';
import { loadTable } from './load-table.js';
import { benchSetting } from './settings.js';
import { soak } from './soak.js';

const seconds = benchSetting('OWNVOICE_BENCH_LOAD_SECONDS', 1, 3600, 10);
const soakSeconds = benchSetting('OWNVOICE_BENCH_SOAK_SECONDS', 1, 86_400, 60);
const rounds = benchSetting('OWNVOICE_BENCH_ROUNDS', MIN_ROUNDS, 1000, 3);

async function main() {
  console.log(`OwnVoice service benchmarks: the API under load (${rounds} rounds of ${seconds} s per route)`);
  const webDir = builtWebApp();
  const postgres = postgresServer();
  if (!postgres) console.log('PostgreSQL is not installed and TEST_DATABASE_URL is not set: PGlite only.');
  let failed = false;
  try {
    for (const [name, url] of [['PGlite', undefined], ...(postgres ? [['PostgreSQL', postgres.url]] : [])]) {
      const server = await startLoadServer(url, webDir);
      try {
        console.log(`${name}: load`);
        await loadTable(server.info, { seconds, rounds });
        console.log(`${name}: soak`);
        if (!(await soak(server, soakSeconds))) failed = true;
      } finally {
        await server.stop();
      }
    }
  } finally {
    postgres?.stop();
  }
  if (failed) process.exitCode = 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
