// The long-lived parts of a server or worker process: storage, the base model, the inference
// endpoints awake Voices write on, the training engine, the job queue, and the services over the
// database. The HTTP app (app.ts) and a standalone
// worker (worker.ts) build the same platform.
import type { Clock } from './clock.js';
import type { Config } from './config.js';
import { createAccountLock } from './db/account-lock.js';
import type { DatabaseHandle } from './db/client.js';
import { BaseModelService } from './engine/base-model.service.js';
import { EngineHost } from './engine/engine-host.js';
import { InferenceHost } from './inference/inference-host.js';
import type { SupervisorLog } from './inference/supervisor.js';
import { JobQueueHost } from './jobs/job-queue.js';
import { loadSecretKey, SecretBox } from './security/secret-box.js';
import { createServices, type Services } from './services/index.js';
import { type ArtifactStorage, LocalArtifactStorage } from './storage/artifact-storage.js';
import { TrainingWorker, type TrainingWorkerOptions } from './workers/training-worker.js';

/** The process's log; the inference process's records go to it too (SupervisorLog). */
export interface Log extends SupervisorLog {
  error(obj: unknown, msg?: string): void;
}

export interface Platform {
  config: Config;
  services: Services;
  /** Where awake Voices and base-model drafts run (an embedded process, or OWNVOICE_INFERENCE_URLS). */
  inference: InferenceHost;
  /** The engine training runs on, in this process. */
  engine: EngineHost;
  jobs: JobQueueHost;
  storage: ArtifactStorage;
  baseModel: BaseModelService;
  clock: Clock;
  log: Log;
  /** A training worker over this platform (started by the caller). */
  trainingWorker(options?: Partial<TrainingWorkerOptions>): TrainingWorker;
  /** Starts billing's scheduled work on the job queue (no-op without payments). */
  startBillingSchedule(): Promise<void>;
  /** Starts delivering e-mail from the job queue, messages left waiting first. */
  startMailDelivery(options?: { pollingIntervalSeconds?: number }): Promise<void>;
  /** Delivers webhooks: each attempt a job, on this process's queue. */
  startWebhookDelivery(options?: { pollingIntervalSeconds?: number }): Promise<void>;
  /** Stops metering, the queue, the inference process and the engine. Stop workers first. */
  close(): Promise<void>;
}

export function createPlatform(deps: {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  log: Log;
  baseModel?: BaseModelService;
  artifactStorage?: ArtifactStorage;
}): Platform {
  const { config, database, clock, log } = deps;
  const baseModel = deps.baseModel ?? new BaseModelService();
  const storage = deps.artifactStorage ?? new LocalArtifactStorage(config.artifactDir);
  const engine = new EngineHost(baseModel, config.threads);
  const inference = new InferenceHost({
    settings: config.inference,
    baseModel,
    artifactDir: config.artifactDir,
    threads: config.threads,
    dataDir: config.dataDir,
    log,
  });
  const jobs = new JobQueueHost(
    () => database.connectionString(),
    (error) => log.error(error, 'job queue error'),
  );
  const secretKey = loadSecretKey(config.secretKey, config.dataDir);
  const box = new SecretBox(secretKey);
  const accountLock = createAccountLock(database);
  const services = createServices(database.db, clock, config, storage, {
    inference,
    jobs,
    log,
    box,
    secretKey,
    accountLock,
    baseModel,
  });
  return {
    config,
    services,
    inference,
    engine,
    jobs,
    storage,
    baseModel,
    clock,
    log,
    trainingWorker: (options = {}) =>
      new TrainingWorker({
        voices: services.repositories.voices,
        usage: services.usage,
        storage,
        engine,
        jobs,
        clock,
        options: {
          preset: config.training.preset,
          leaseSeconds: config.training.leaseSeconds,
          threads: config.threads,
          log,
          ...options,
          // A caller's changes of the preset go over the configured ones, each on its own.
          presetChanges: { ...config.training.presetChanges, ...options.presetChanges },
        },
        notices: services.notices,
        events: services.trainingEvents,
      }),
    startBillingSchedule: async () => {
      if (!services.payments) return;
      const queue = await jobs.get();
      await queue.scheduleBillingTick(() => services.billing.tick());
    },
    startMailDelivery: async ({ pollingIntervalSeconds } = {}) => {
      const queue = await jobs.get();
      await queue.workMail((id) => services.mail.deliver(id), pollingIntervalSeconds);
      const waiting = await services.mail.requeueWaiting();
      if (waiting > 0) log.info(`${waiting} e-mail message(s) left waiting are queued again`);
    },
    startWebhookDelivery: async ({ pollingIntervalSeconds } = {}) => {
      const queue = await jobs.get();
      await queue.workWebhooks((id) => services.webhooks.deliver(id), pollingIntervalSeconds);
    },
    close: async () => {
      services.activation.stopMetering();
      services.mail.close();
      await jobs.stop();
      await services.payments?.offline?.settled();
      await accountLock.close();
      await inference.dispose();
      await engine.dispose();
    },
  };
}

/** Starts the base model (downloading it once if needed); resolves with whether it is ready. */
export async function startBaseModel(platform: Platform): Promise<boolean> {
  const status = await platform.baseModel.start({
    spec: platform.config.baseModel,
    dataDir: platform.config.dataDir,
    log: (message) => platform.log.info(message),
    warn: (message) => platform.log.warn(message),
  });
  return status.state === 'ready';
}
