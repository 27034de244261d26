// Starts OwnVoice: reads configuration, opens and migrates the database, serves, and shuts
// down cleanly on SIGINT/SIGTERM (in-flight requests finish, the database closes).
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { ConfigError, loadConfig } from './config.js';
import { claimDataFolder, DataFolderInUseError, socketsDir } from './data-folder.js';
import { type DatabaseHandle, openDatabase, pgliteDir } from './db/client.js';
import { runMigrations } from './db/migrate.js';
import { BaseModelService } from './engine/base-model.service.js';
import { startBaseModel } from './platform.js';
import { keepFilesPrivate, openFolderWarnings } from './security/private-files.js';
import type { TrainingWorker } from './workers/training-worker.js';

async function main(): Promise<void> {
  // Before anything is written: the database, uploads and adapters are this user's alone.
  keepFilesPrivate();
  let config: ReturnType<typeof loadConfig>;
  try {
    config = loadConfig(process.env, { webDir: fileURLToPath(new URL('../../web/dist', import.meta.url)) });
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(
        `${error.message}\nFix the variables above (see the Configuration table in README.md) and start again.`,
      );
      process.exit(1);
    }
    throw error;
  }

  // Before anything opens the embedded database: a second process on the same folder leaves
  // without touching it.
  try {
    claimDataFolder(config, 'the OwnVoice server');
  } catch (error) {
    if (error instanceof DataFolderInUseError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }

  let database: DatabaseHandle;
  try {
    database = await openDatabase(
      config.databaseUrl
        ? { kind: 'postgres', url: config.databaseUrl }
        : { kind: 'pglite', dataDir: pgliteDir(config.dataDir), socketDir: socketsDir(config.dataDir) },
    );
    await runMigrations(database);
  } catch (error) {
    const where = config.databaseUrl ? 'the PostgreSQL server in DATABASE_URL' : `the data folder ${config.dataDir}`;
    console.error(`Could not open the database (${where}): ${(error as Error).message}`);
    process.exit(1);
  }

  const baseModel = new BaseModelService();
  const app = await buildApp({ config, database, baseModel });
  app.addHook('onClose', async () => database.close());
  // Forks made before they took only the adapter lose the evaluation (the source's writing) they copied.
  await app.platform.services.voices.tidyForks().catch((error: unknown) => {
    app.log.warn({ err: error }, 'could not tidy the files of older forks');
  });
  // Voices trained before their base model was recorded: the model file their adapters name (decision 31).
  await app.platform.services.voices.recallBaseModels().catch((error: unknown) => {
    app.log.warn({ err: error }, 'could not read which base model older Voices were trained on');
  });
  for (const warning of openFolderWarnings([
    { path: config.dataDir, what: 'data folder' },
    { path: config.artifactDir, what: 'artifact folder' },
  ])) {
    app.log.warn(warning);
  }
  if (process.env.OWNVOICE_SUPER_ADMIN_EMAIL) {
    app.log.warn(
      'OWNVOICE_SUPER_ADMIN_EMAIL is no longer read: an e-mail address nobody verified proves nothing. ' +
        'Make the first super admin with `npm run admin -- create-super-admin --email <address>` (see README.md).',
    );
  }

  let worker: TrainingWorker | undefined;
  let closing = false;
  const shutdown = (signal: string) => {
    if (closing) {
      app.log.warn(`${signal} again: exiting now`);
      process.exit(1);
    }
    closing = true;
    app.log.info(`${signal} received: finishing requests and closing`);
    // A training under way is checkpointed and goes back to the queue; it resumes at the next start.
    Promise.resolve(worker?.stop())
      .then(() => app.close())
      .then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'error while closing');
          process.exit(1);
        },
      );
  };
  // A promise nobody awaited that fails (a generation cut short after its stream ended) is one
  // request's problem: log it rather than end the process for every user.
  process.on('unhandledRejection', (reason) => app.log.error({ err: reason }, 'unhandled promise rejection'));
  process.on('SIGINT', () => shutdown('SIGINT'));
  process.on('SIGTERM', () => shutdown('SIGTERM'));

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const hint = code === 'EADDRINUSE' ? ` Port ${config.port} is in use: set PORT to a free one.` : '';
    app.log.error(`Could not listen on ${config.host}:${config.port}.${hint}`);
    await database.close();
    process.exit(1);
  }
  // Trials that end and offline renewals run on the job queue whether or not the model is ready.
  app.platform
    .startBillingSchedule()
    .catch((error: unknown) => app.log.error({ err: error }, 'could not start the billing schedule'));
  app.platform
    .startMailDelivery()
    .then(() => app.log.info(`e-mail goes to ${app.platform.services.mail.destination}`))
    .catch((error: unknown) => app.log.error({ err: error }, 'could not start e-mail delivery'));
  app.platform
    .startWebhookDelivery()
    .catch((error: unknown) => app.log.error({ err: error }, 'could not start webhook delivery'));
  // Found (or downloaded) after listening, so the site answers while a first download runs.
  // Then the inference endpoints (the embedded process starts), Voices awake before a restart
  // wake again, metering starts, and so does training.
  void (async () => {
    if (!(await startBaseModel(app.platform)) || closing) return;
    await app.platform.inference.ready();
    await app.platform.services.activation.restore();
    app.platform.services.activation.startMetering();
    if (config.training.inProcessWorker && !closing) {
      worker = app.platform.trainingWorker();
      await worker.start();
    }
  })().catch((error: unknown) => app.log.error({ err: error }, 'could not start the Voice engine'));
  app.log.info(
    `OwnVoice is running at http://${config.host === '0.0.0.0' ? 'localhost' : config.host}:${config.port} (database: ${database.kind})`,
  );
}

void main();
