// One test run for the whole repo. Server tests run on PGlite; those that open a database
// (scripts/database-tests.mjs) run once more on PostgreSQL when TEST_DATABASE_URL points at a
// server (CI starts one).
import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { databaseTests } from './scripts/database-tests.mjs';

const serverProject = (
  name: string,
  env: Record<string, string>,
  options: { include?: string[]; exclude?: string[]; globalSetup?: string[] } = {},
) => ({
  test: {
    name,
    root: 'apps/server',
    include: options.include ?? ['src/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(options.exclude ?? [])],
    // The run's temporary folder (run-folder.setup.ts), then the project's own setup.
    globalSetup: ['src/test/run-folder.setup.ts', ...(options.globalSetup ?? [])],
    environment: 'node' as const,
    env,
    // A timeout only catches a hang. With two workers on two cores a test that wakes a Voice (the
    // house model loads in a child process) ran 14 s alone and past 30 s beside another file.
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // A worker keeps its modules from one file to the next: each file imported the whole app anew
    // (about 3 s), and server:pglite went from 868 s to 734 s here. Server code keeps no state in
    // its modules that a test changes; each file still opens its own database and app.
    isolate: false,
  },
});

const postgresUrl = process.env.TEST_DATABASE_URL;

export default defineConfig({
  test: {
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine, on
    // which the server's files then ran one at a time. They wait on their databases, mail server
    // and engines often enough that two workers took server:pglite from 1,212 s to 868 s here.
    // Projects that set fileParallelism: false still run one file at a time.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      { test: { name: 'shared', root: 'packages/shared', include: ['src/**/*.test.ts'] } },
      // Checks of the repository itself (lint boundaries).
      { test: { name: 'repo', root: '.', include: ['scripts/**/*.test.ts'], environment: 'node' } },
      // Each PGlite test database starts from one migrated dump made once per run.
      serverProject(
        'server:pglite',
        { OWNVOICE_TEST_DB: 'pglite' },
        { globalSetup: ['src/test/pglite-template.setup.ts'] },
      ),
      ...(postgresUrl
        ? [serverProject('server:postgres', { OWNVOICE_TEST_DB: 'postgres' }, { include: databaseTests() })]
        : []),
      {
        test: {
          name: 'engine',
          root: 'packages/engine',
          include: ['src/**/*.test.ts', 'bench/**/*.test.ts'],
          environment: 'node',
          testTimeout: 300_000,
          hookTimeout: 300_000,
          // Model tests load llama.cpp and PyTorch: one file at a time on two cores.
          fileParallelism: false,
          // One worker keeps llama.cpp and the engine's modules loaded between files: 384 s → 317 s.
          // A single non-isolated worker needs a group of its own, after the parallel projects.
          isolate: false,
          sequence: { groupOrder: 1 },
        },
      },
      {
        test: {
          name: 'inference',
          root: 'apps/inference',
          include: ['src/**/*.test.ts'],
          environment: 'node',
          testTimeout: 120_000,
          hookTimeout: 120_000,
          // Each file starts an engine on the house model: one at a time on two cores.
          fileParallelism: false,
        },
      },
      {
        test: {
          name: 'web',
          root: 'apps/web',
          include: ['src/**/*.test.{ts,tsx}'],
          environment: 'node',
          // One module graph per worker, as the server's: 134 s of CPU isolated, 41 s not. Each
          // page test's resetPage() puts back the state the web app keeps outside React.
          isolate: false,
        },
      },
    ],
  },
});
