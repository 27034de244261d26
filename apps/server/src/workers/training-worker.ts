// Trains Voices from the queue. One training at a time per worker; any number of workers (this
// server's own, and `npm run worker` processes elsewhere) share the queue and the artifact
// folder. A worker holds a lease on the Voice it trains and renews it; when a worker dies the
// lease lapses and any worker sends the job back to the queue, where the next worker resumes it
// from its checkpoint. A training that fails ends the Voice as failed and gives the training back.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { trainVoice, type UploadedFile, type VoiceProgress } from '@ownvoice/engine';
import type { Clock } from '../clock.js';
import type { VoiceRow } from '../db/schema.js';
import { type EngineHost, presetFor } from '../engine/engine-host.js';
import type { JobQueueHost, TrainingJob } from '../jobs/job-queue.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { UsageService } from '../services/usage.service.js';
import {
  PASTED_TEXT_FILE,
  UPLOAD_MANIFEST,
  type UploadManifestEntry,
  uploadsKey,
} from '../services/voice-creation.service.js';
import { voiceFolder } from '../services/voices.service.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';

export interface TrainingWorkerOptions {
  /** tiny or standard; undefined picks tiny for the house model and standard otherwise. */
  preset: 'tiny' | 'standard' | undefined;
  leaseSeconds: number;
  threads?: number | undefined;
  pollingIntervalSeconds?: number;
  log: { info(msg: string): void; warn(msg: string): void; error(obj: unknown, msg?: string): void };
  /** Sees every progress report (tests follow a run with it). */
  onProgress?: (voiceId: string, progress: VoiceProgress) => void;
}

/** Why a training stopped without failing: it goes back to the queue. */
class Interrupted extends Error {
  constructor(reason: string) {
    super(reason);
    this.name = 'Interrupted';
  }
}

/** The Voice was deleted while it trained: nothing to finish. */
class VoiceGone extends Error {}

/** Progress is written at most this often (and at every stage change). */
const PROGRESS_WRITE_MS = 1000;

export const adapterFolderKey = (voiceId: string): string => `${voiceFolder(voiceId)}/adapter`;
const workKey = (voiceId: string): string => `${voiceFolder(voiceId)}/work`;

export class TrainingWorker {
  private current: { voiceId: string; controller: AbortController; done: Promise<void> } | undefined;
  private recoveryTimer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(
    private readonly voices: VoicesRepository,
    private readonly usage: UsageService,
    private readonly storage: ArtifactStorage,
    private readonly engine: EngineHost,
    private readonly jobs: JobQueueHost,
    private readonly clock: Clock,
    private readonly options: TrainingWorkerOptions,
  ) {}

  private get leaseMs(): number {
    return this.options.leaseSeconds * 1000;
  }

  /** Starts taking jobs (the engine must have its base model by now). */
  async start(): Promise<void> {
    const queue = await this.jobs.get();
    await this.recover();
    this.recoveryTimer = setInterval(() => {
      this.recover().catch((error: unknown) => this.options.log.error(error, 'training recovery failed'));
    }, this.leaseMs / 2);
    this.recoveryTimer.unref();
    await queue.workTraining((job) => this.run(job), this.options.pollingIntervalSeconds ?? 2);
    this.options.log.info('training worker started');
  }

  /** Stops taking jobs; a training under way is interrupted and goes back to the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.recoveryTimer);
    const queue = await this.jobs.get().catch(() => undefined);
    const running = this.current;
    running?.controller.abort(new Interrupted('the trainer is stopping'));
    await queue?.stopWorking();
    await running?.done.catch(() => undefined);
  }

  /** Sends trainings whose worker stopped renewing its lease back to the queue. */
  async recover(): Promise<void> {
    const queue = await this.jobs.get();
    const now = this.clock.now();
    const lapsed = await this.voices.listLapsedTrainings(now, new Date(now.getTime() - this.leaseMs));
    for (const voice of lapsed) {
      if (voice.id === this.current?.voiceId || !voice.pipelineId) continue;
      const state = await queue.state(voice.pipelineId);
      if (state === 'active') {
        this.options.log.warn(`training of Voice ${voice.id} lost its worker; queueing it to resume`);
        await queue.release(voice.pipelineId, 'worker lost');
        await this.voices.transition(voice.id, ['training'], {
          leaseUntil: new Date(now.getTime() + this.leaseMs),
          statusMessage: 'The trainer stopped; resuming where it left off',
        });
      } else if (state === 'created' || state === 'retry') {
        // Queued again already: the next worker to take it renews the lease.
        await this.voices.transition(voice.id, ['training'], {
          leaseUntil: new Date(now.getTime() + this.leaseMs),
        });
      } else {
        // The job is gone or spent its retries: nothing will train this Voice.
        await this.fail(voice, 'The training was interrupted too many times.');
      }
    }
  }

  private async run(job: TrainingJob): Promise<void> {
    const voice = await this.voices.findById(job.data.voiceId);
    if (!voice || (voice.status !== 'pending' && voice.status !== 'training')) return;
    if (this.stopped) throw new Interrupted('the trainer is stopping');
    const controller = new AbortController();
    let finish: () => void = () => {};
    const done = new Promise<void>((resolve) => {
      finish = resolve;
    });
    this.current = { voiceId: voice.id, controller, done };
    const heartbeat = setInterval(() => {
      this.renewLease(voice.id).then(
        (alive) => {
          if (!alive) controller.abort(new VoiceGone());
        },
        (error: unknown) => this.options.log.error(error, 'could not renew a training lease'),
      );
    }, this.leaseMs / 3);
    try {
      await this.train(voice, controller.signal);
    } catch (error) {
      const aborted = controller.signal.aborted ? controller.signal.reason : error;
      // Deleting a Voice removes its files under the trainer, which then fails on a missing
      // file before the lease check notices: that is a cancellation, not a failure.
      const reason = aborted instanceof Interrupted || (await this.exists(voice.id)) ? aborted : new VoiceGone();
      if (reason instanceof VoiceGone) {
        this.options.log.info(`training of Voice ${voice.id} cancelled: the Voice was deleted`);
        await this.storage.remove(voiceFolder(voice.id));
      } else if (reason instanceof Interrupted) {
        // The lease stays: should the hand-back below not reach the queue, it lapses and any
        // worker recovers the job.
        await this.voices.transition(voice.id, ['training'], {
          statusMessage: 'Paused: the trainer restarted. It resumes where it left off.',
        });
        // Back to the queue now, so the next worker (or this one after a restart) resumes it at
        // once; pg-boss then finds the job no longer active and leaves it be.
        await (await this.jobs.get()).release(job.id, reason.message);
      } else {
        this.options.log.error(error, `training of Voice ${voice.id} failed`);
        await this.fail(voice, (error as Error).message);
      }
    } finally {
      clearInterval(heartbeat);
      this.current = undefined;
      finish();
    }
  }

  private async exists(voiceId: string): Promise<boolean> {
    return (await this.voices.findById(voiceId)) !== undefined;
  }

  /** Renews the lease; false when the Voice no longer exists or is no longer training. */
  private async renewLease(voiceId: string): Promise<boolean> {
    const row = await this.voices.transition(voiceId, ['training'], {
      leaseUntil: new Date(this.clock.now().getTime() + this.leaseMs),
    });
    return row !== undefined;
  }

  private async train(voice: VoiceRow, signal: AbortSignal): Promise<void> {
    const started = await this.voices.transition(voice.id, ['pending', 'training'], {
      status: 'training',
      stage: 'extract',
      leaseUntil: new Date(this.clock.now().getTime() + this.leaseMs),
      statusMessage: voice.status === 'training' ? 'Resuming where it left off' : 'Starting',
    });
    if (!started) throw new VoiceGone();
    const engine = await this.engine.get();
    const model = this.engine.model();
    const { files, pastedText } = await this.readUploads(voice.id);

    let lastWrite = 0;
    let lastStage = '';
    const onProgress = (p: VoiceProgress) => {
      this.options.onProgress?.(voice.id, p);
      const now = Date.now();
      if (p.stage === lastStage && now - lastWrite < PROGRESS_WRITE_MS) return;
      lastStage = p.stage;
      lastWrite = now;
      void this.voices
        .transition(voice.id, ['training'], {
          stage: p.stage,
          progress: Math.min(99, Math.floor(p.percent)),
          statusMessage: p.message,
          etaSeconds: p.etaSeconds !== undefined ? Math.ceil(p.etaSeconds) : null,
        })
        .catch((error: unknown) => this.options.log.error(error, 'could not save training progress'));
    };

    const trained = await trainVoice({
      engine,
      baseModelPath: model.path,
      baseModelName: model.name,
      files,
      ...(pastedText ? { pastedText } : {}),
      preset: presetFor(model, this.options.preset),
      workDir: this.storage.localPath(workKey(voice.id)),
      outDir: this.storage.localPath(adapterFolderKey(voice.id)),
      version: (voice.pipelineId ?? voice.id).slice(0, 8),
      ...(this.options.threads ? { threads: this.options.threads } : {}),
      signal,
      onProgress,
    });

    const adapterKey = `${adapterFolderKey(voice.id)}/${path.basename(trained.adapterPath)}`;
    const finished = await this.voices.transition(voice.id, ['training'], {
      status: 'ready',
      progress: 100,
      stage: null,
      etaSeconds: null,
      leaseUntil: null,
      statusMessage: null,
      adapterKey,
      evaluation: trained.evaluation,
      characters: trained.characters,
    });
    if (!finished) throw new VoiceGone();
    // The writing and the checkpoints were only needed to train; the Voice keeps its adapter.
    await this.storage.remove(workKey(voice.id));
    await this.storage.remove(uploadsKey(voice.id));
  }

  private async readUploads(voiceId: string): Promise<{ files: UploadedFile[]; pastedText: string | undefined }> {
    const dir = this.storage.localPath(uploadsKey(voiceId));
    const manifest = JSON.parse(await readFile(path.join(dir, UPLOAD_MANIFEST), 'utf8')) as UploadManifestEntry[];
    const files: UploadedFile[] = [];
    for (const entry of manifest) {
      files.push({ name: entry.name, data: await readFile(path.join(dir, entry.file)) });
    }
    const pastedPath = path.join(dir, PASTED_TEXT_FILE);
    return { files, pastedText: existsSync(pastedPath) ? await readFile(pastedPath, 'utf8') : undefined };
  }

  private async fail(voice: VoiceRow, message: string): Promise<void> {
    const failed = await this.voices.transition(voice.id, ['pending', 'training'], {
      status: 'failed',
      stage: null,
      etaSeconds: null,
      leaseUntil: null,
      statusMessage: `Training failed: ${message}`,
    });
    if (!failed) return;
    // Nothing the person did made it fail: they get the training back.
    await this.usage.refund(voice.userId, 'modelsTrained', 1);
    await this.storage.remove(workKey(voice.id));
  }
}
