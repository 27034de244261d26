// Runs one training: the Voice is marked training, its writing is read back, the engine trains
// (from the last checkpoint when an earlier run left one in the work folder) and the Voice ends
// ready with its adapter and evaluation. The caller holds the lease and settles any other ending
// (stopped, deleted, failed). The Voice records the base model it is trained on, when the run
// starts and when it ends (decision 31): a Voice wakes only on that model.
import path from 'node:path';
import { trainVoice, type VoiceProgress } from '@ownvoice/engine';
import type { Clock } from '../clock.js';
import type { VoiceRow } from '../db/schema.js';
import { type EngineHost, type PresetChanges, presetFor } from '../engine/engine-host.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { Notices } from '../services/notices.js';
import type { TrainingEventLog } from '../services/training-events.js';
import { recordedBase } from '../services/voice-base-model.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { adapterFolderKey, readUploads, uploadsKey, workKey } from '../storage/voice-files.js';
import { progressSaver } from './training-progress.js';

/** What a freshly trained Voice's card says until it is first woken. */
export const TRAINED_MESSAGE = 'Ready: wake it up to start writing in your own voice.';

/** The Voice was deleted while it trained: nothing to finish. */
export class VoiceGone extends Error {}

export interface TrainingRun {
  voices: VoicesRepository;
  storage: ArtifactStorage;
  engine: EngineHost;
  clock: Clock;
  /** tiny or standard; undefined picks tiny for the house model and standard otherwise. */
  preset: 'tiny' | 'standard' | undefined;
  /** What the operator changes of the preset (config.training). */
  presetChanges?: PresetChanges | undefined;
  threads?: number | undefined;
  /** The lease's end if it were renewed now. */
  leaseUntil: () => Date;
  log: { error(obj: unknown, msg?: string): void };
  onProgress?: ((voiceId: string, progress: VoiceProgress) => void) | undefined;
  /** Tells the owner their Voice is ready, once its row says so. */
  notices?: Pick<Notices, 'voiceReady'> | undefined;
  /** The training's events (GET /api/loras/:id/training-events). */
  events?: Pick<TrainingEventLog, 'record'> | undefined;
}

export async function runTraining(run: TrainingRun, voice: VoiceRow, signal: AbortSignal): Promise<void> {
  const { voices, storage } = run;
  const base = recordedBase(await run.engine.identity());
  // A run resumed by a worker on another base model starts over: the checkpoint and the cached
  // pairs in the work folder are the other model's.
  const otherBase = voice.baseModelState === 'recorded' && voice.baseModelSha256 !== base.baseModelSha256;
  if (otherBase) await storage.remove(workKey(voice.id));
  const started = await voices.transition(voice.id, ['pending', 'training'], {
    status: 'training',
    stage: 'extract',
    // A resumed run measures its own pace again.
    estimatedDoneAt: null,
    leaseUntil: run.leaseUntil(),
    statusMessage: voice.status === 'training' && !otherBase ? 'Resuming where it left off' : 'Starting',
    ...base,
  });
  if (!started) throw new VoiceGone();
  const engine = await run.engine.get();
  const model = run.engine.model();
  const { files, pastedText } = await readUploads(storage, voice.id);

  const save = progressSaver(voices, voice.id, run.clock, run.log, run.events);
  const trained = await trainVoice({
    engine,
    baseModelPath: model.path,
    baseModelName: model.name,
    files,
    ...(pastedText ? { pastedText } : {}),
    preset: presetFor(model, run.preset, run.presetChanges),
    workDir: storage.localPath(workKey(voice.id)),
    outDir: storage.localPath(adapterFolderKey(voice.id)),
    version: (voice.pipelineId ?? voice.id).slice(0, 8),
    ...(run.threads ? { threads: run.threads } : {}),
    signal,
    now: () => run.clock.now().getTime(),
    onProgress: (p) => {
      run.onProgress?.(voice.id, p);
      save(p);
    },
  });

  const finished = await voices.transition(voice.id, ['training'], {
    status: 'ready',
    progress: 100,
    stage: null,
    estimatedDoneAt: null,
    leaseUntil: null,
    statusMessage: TRAINED_MESSAGE,
    adapterKey: `${adapterFolderKey(voice.id)}/${path.basename(trained.adapterPath)}`,
    evaluation: trained.evaluation,
    characters: trained.characters,
    trainedAt: run.clock.now(),
    ...base,
  });
  if (!finished) throw new VoiceGone();
  await run.events?.record(voice.id, { stage: 'succeeded', message: 'Training succeeded: the Voice is ready.' });
  // Once: only the run that moved the Voice from training to ready gets here.
  await run.notices?.voiceReady(finished);
  // Tidied only after the Voice is ready: a crash in between leaves a usable Voice, not a
  // training whose writing is gone. The Voice keeps only its adapter.
  await storage.remove(workKey(voice.id));
  await storage.remove(uploadsKey(voice.id));
}
