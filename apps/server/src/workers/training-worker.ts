// Takes trainings from the queue and holds their leases. One training at a time per worker; any
// number of workers (this server's own, and `npm run worker` processes elsewhere) share the
// queue and the artifact folder. A worker renews the lease on the Voice it trains; when a worker
// dies its lease lapses and any worker sends the job back to the queue, where the next worker
// resumes it from its checkpoint. A training that fails ends the Voice as failed and gives the
// training back. Running the training itself is run-training.ts.
import type { VoiceProgress } from '@ownvoice/engine';
import type { Clock } from '../clock.js';
import type { VoiceRow } from '../db/schema.js';
import type { EngineHost, PresetChanges } from '../engine/engine-host.js';
import type { JobQueueHost, TrainingJob } from '../jobs/job-queue.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { Notices } from '../services/notices.js';
import type { TrainingEventLog } from '../services/training-events.js';
import type { UsageService } from '../services/usage.service.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { voiceFolder, workKey } from '../storage/voice-files.js';
import { runTraining, type TrainingRun, VoiceGone } from './run-training.js';

export interface TrainingWorkerOptions {
  /** tiny or standard; undefined picks tiny for the house model and standard otherwise. */
  preset: 'tiny' | 'standard' | undefined;
  /** What the operator changes of the preset (config.training). */
  presetChanges?: PresetChanges | undefined;
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

/** What a training worker works with, by name. */
export interface TrainingWorkerDeps {
  voices: VoicesRepository;
  usage: UsageService;
  storage: ArtifactStorage;
  engine: EngineHost;
  jobs: JobQueueHost;
  clock: Clock;
  options: TrainingWorkerOptions;
  /** The owner's notices: the Voice ready, or why its training failed. */
  notices?: Pick<Notices, 'voiceReady' | 'voiceFailed'>;
  /** The training's events: its progress, and how it ended. */
  events?: Pick<TrainingEventLog, 'record'>;
}

export class TrainingWorker {
  private current: { voiceId: string; controller: AbortController; done: Promise<void> } | undefined;
  private recoveryTimer: NodeJS.Timeout | undefined;
  private stopped = false;
  private readonly training: TrainingRun;
  private readonly voices: VoicesRepository;
  private readonly usage: UsageService;
  private readonly storage: ArtifactStorage;
  private readonly jobs: JobQueueHost;
  private readonly clock: Clock;
  private readonly options: TrainingWorkerOptions;
  private readonly notices: TrainingWorkerDeps['notices'];
  private readonly events: TrainingWorkerDeps['events'];

  constructor({ voices, usage, storage, engine, jobs, clock, options, notices, events }: TrainingWorkerDeps) {
    this.voices = voices;
    this.usage = usage;
    this.storage = storage;
    this.jobs = jobs;
    this.clock = clock;
    this.options = options;
    this.notices = notices;
    this.events = events;
    this.training = {
      voices,
      storage,
      engine,
      clock,
      preset: options.preset,
      presetChanges: options.presetChanges,
      threads: options.threads,
      leaseUntil: () => this.leaseUntil(),
      log: options.log,
      onProgress: options.onProgress,
      notices,
      events,
    };
  }

  private get leaseMs(): number {
    return this.options.leaseSeconds * 1000;
  }

  /** The end of a lease taken or renewed now. */
  private leaseUntil(): Date {
    return new Date(this.clock.now().getTime() + this.leaseMs);
  }

  /** Starts taking jobs (the engine must have its base model by now). */
  async start(): Promise<void> {
    const queue = await this.jobs.get();
    await this.recover();
    // Twice per lease, so a lapsed one is found well before a second lease would have run out.
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
          leaseUntil: this.leaseUntil(),
          estimatedDoneAt: null,
          statusMessage: 'The trainer stopped; resuming where it left off',
        });
      } else if (state === 'created' || state === 'retry') {
        // Queued again already: the next worker to take it renews the lease.
        await this.voices.transition(voice.id, ['training'], { leaseUntil: this.leaseUntil() });
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
    // Three renewals per lease: one lost write does not let the lease lapse.
    const heartbeat = setInterval(() => {
      this.renewLease(voice.id).then(
        (alive) => {
          if (!alive) controller.abort(new VoiceGone());
        },
        (error: unknown) => this.options.log.error(error, 'could not renew a training lease'),
      );
    }, this.leaseMs / 3);
    try {
      await runTraining(this.training, voice, controller.signal);
    } catch (error) {
      await this.settle(job, voice, controller.signal.aborted ? controller.signal.reason : error, error);
    } finally {
      clearInterval(heartbeat);
      this.current = undefined;
      finish();
    }
  }

  /** Ends a training that did not finish: cancelled, back to the queue, or failed. */
  private async settle(job: TrainingJob, voice: VoiceRow, stop: unknown, error: unknown): Promise<void> {
    // Its owner cancelled it (services/training-control.service.ts): the Voice is failed and the
    // training given back already; what is left is the work folder.
    const now = await this.voices.findById(voice.id);
    if (now && now.status !== 'pending' && now.status !== 'training') {
      this.options.log.info(`training of Voice ${voice.id} cancelled by its owner`);
      await this.storage.remove(workKey(voice.id));
      return;
    }
    // Deleting a Voice removes its files under the trainer, which then fails on a missing file
    // before the lease check notices: that is a cancellation, not a failure.
    const reason = stop instanceof Interrupted || (await this.exists(voice.id)) ? stop : new VoiceGone();
    if (reason instanceof VoiceGone) {
      this.options.log.info(`training of Voice ${voice.id} cancelled: the Voice was deleted`);
      await this.storage.remove(voiceFolder(voice.id));
    } else if (reason instanceof Interrupted) {
      // The lease stays: should the hand-back below not reach the queue, it lapses and any
      // worker recovers the job.
      await this.voices.transition(voice.id, ['training'], {
        estimatedDoneAt: null,
        statusMessage: 'Paused: the trainer restarted. It resumes where it left off.',
      });
      // Back to the queue now, so the next worker (or this one after a restart) resumes it at
      // once; pg-boss then finds the job no longer active and leaves it be.
      await (await this.jobs.get()).release(job.id, reason.message);
    } else {
      this.options.log.error(error, `training of Voice ${voice.id} failed`);
      await this.fail(voice, (error as Error).message);
    }
  }

  private async exists(voiceId: string): Promise<boolean> {
    return (await this.voices.findById(voiceId)) !== undefined;
  }

  /** Renews the lease; false when the Voice no longer exists or is no longer training. */
  private async renewLease(voiceId: string): Promise<boolean> {
    const row = await this.voices.transition(voiceId, ['training'], { leaseUntil: this.leaseUntil() });
    return row !== undefined;
  }

  private async fail(voice: VoiceRow, message: string): Promise<void> {
    const failed = await this.voices.transition(voice.id, ['pending', 'training'], {
      status: 'failed',
      stage: null,
      estimatedDoneAt: null,
      leaseUntil: null,
      statusMessage: `Training failed: ${message}`,
    });
    // Not failed here: the Voice is gone (deleted by its owner) or another worker settled it.
    if (!failed) return;
    await this.events?.record(voice.id, { stage: 'failed', level: 'error', message: `Training failed: ${message}` });
    try {
      // Nothing the person did made it fail: they get the training back.
      await this.usage.refund(voice.userId, 'modelsTrained', 1);
      await this.storage.remove(workKey(voice.id));
    } finally {
      // Once: only the call that moved the Voice to failed gets here.
      await this.notices?.voiceFailed(failed, message);
    }
  }
}
