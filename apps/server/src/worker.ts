// A training worker on its own: `npm run worker`. It shares the service's database (DATABASE_URL,
// a PostgreSQL server) and artifact folder (OWNVOICE_ARTIFACT_DIR, a path every machine mounts),
// takes training jobs from the queue, and stops cleanly on SIGINT/SIGTERM: a training under way
// is checkpointed and goes back to the queue for the next worker to resume.

import { systemClock } from './clock.js';
import { loadConfig } from './config.js';
import { openDatabase } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { createPlatform, startBaseModel } from './platform.js';
import { keepFilesPrivate } from './security/private-files.js';

const line = (level: string, msg: string) => console.log(`${new Date().toISOString()} ${level} ${msg}`);
const log = {
  info: (msg: string) => line('info', msg),
  warn: (msg: string) => line('warn', msg),
  error: (err: unknown, msg?: string) => line('error', `${msg ?? 'error'}: ${(err as Error)?.stack ?? String(err)}`),
};

async function main(): Promise<void> {
  // Adapters and checkpoints are the service user's alone (every process shares that user).
  keepFilesPrivate();
  const config = loadConfig(process.env);
  if (!config.databaseUrl) {
    console.error(
      'A separate worker needs the service database: set DATABASE_URL to the PostgreSQL server the service uses,\n' +
        'and OWNVOICE_ARTIFACT_DIR to the artifact folder it shares. (With the embedded database, the service trains in-process.)',
    );
    process.exit(1);
  }
  const database = await openDatabase({ kind: 'postgres', url: config.databaseUrl, maxConnections: 4 });
  await runMigrations(database);
  const platform = createPlatform({ config, database, clock: systemClock, log });
  const worker = platform.trainingWorker();
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) process.exit(1);
    stopping = true;
    log.info(`${signal} received: handing the current training back to the queue`);
    worker
      .stop()
      .then(() => platform.close())
      .then(() => database.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          log.error(error, 'error while stopping');
          process.exit(1);
        },
      );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));

  if (!(await startBaseModel(platform))) {
    log.error(platform.baseModel.status.message, 'the base model is unavailable; the worker cannot train');
    process.exit(1);
  }
  if (stopping) return;
  await worker.start();
  log.info(`worker ready (base model ${platform.baseModel.status.model}, artifacts in ${config.artifactDir})`);
}

main().catch((error: unknown) => {
  log.error(error, 'the worker could not start');
  process.exit(1);
});
