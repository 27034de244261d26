// Creating a Voice from an upload: the checked input moves into the Voice's folder, a training
// and a storage slot are spent and the Voice row is written in one transaction, then the
// training job is queued. Any failure leaves no Voice, no files and nothing spent.
import { randomUUID } from 'node:crypto';
import { rm } from 'node:fs/promises';
import type { Voice } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { JobQueueHost } from '../jobs/job-queue.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { storeUploads, voiceFolder } from '../storage/voice-files.js';
import type { TrainingEventLog } from './training-events.js';
import { type CheckedTrainingInput, checkTrainingInput } from './training-input.js';
import type { UsageReceipt, UsageService } from './usage.service.js';
import type { UsersService } from './users.service.js';
import { toVoiceView } from './voices.service.js';

/** What creating a Voice works with, by name. */
export interface VoiceCreationDeps {
  db: Database;
  voices: VoicesRepository;
  users: UsersRepository;
  usage: UsageService;
  /** Moves the owner's onboarding on once they have a Voice. */
  onboarding: Pick<UsersService, 'reachedFirstVoice'>;
  storage: ArtifactStorage;
  jobs: JobQueueHost;
  clock: Clock;
  /** The training's events: its first, "queued". */
  events?: Pick<TrainingEventLog, 'record'>;
}

export class VoiceCreationService {
  private readonly db: Database;
  private readonly voices: VoicesRepository;
  private readonly users: UsersRepository;
  private readonly usage: UsageService;
  private readonly onboarding: Pick<UsersService, 'reachedFirstVoice'>;
  private readonly storage: ArtifactStorage;
  private readonly jobs: JobQueueHost;
  private readonly clock: Clock;
  private readonly events: VoiceCreationDeps['events'];

  constructor({ db, voices, users, usage, onboarding, storage, jobs, clock, events }: VoiceCreationDeps) {
    this.db = db;
    this.voices = voices;
    this.users = users;
    this.usage = usage;
    this.onboarding = onboarding;
    this.storage = storage;
    this.jobs = jobs;
    this.clock = clock;
    this.events = events;
  }

  /**
   * Checks what the upload holds (its fields come checked by their schema) and creates the Voice;
   * the upload's folder is consumed either way.
   */
  async createFromUpload(
    user: UserRow,
    upload: { dir: string; fields: { name: string; text: string }; files: readonly { name: string; path: string }[] },
  ): Promise<Voice> {
    let input: CheckedTrainingInput;
    try {
      input = await checkTrainingInput(upload.fields, upload.files, user.id);
    } catch (error) {
      await rm(upload.dir, { recursive: true, force: true });
      throw error;
    }
    return this.create(user, input, upload.dir, upload.files);
  }

  /**
   * `uploadDir` holds the uploaded files (`files` point into it); it is consumed: moved into the
   * Voice's folder on success, removed on failure.
   */
  async create(
    user: UserRow,
    input: CheckedTrainingInput,
    uploadDir: string,
    files: readonly { name: string; path: string }[],
  ): Promise<Voice> {
    const id = newId(this.clock.now());
    const pipelineId = randomUUID();
    try {
      await storeUploads(this.storage, id, uploadDir, files, input.pastedText);
    } catch (error) {
      await rm(uploadDir, { recursive: true, force: true });
      throw error;
    }

    let voice: Awaited<ReturnType<VoicesRepository['insert']>>;
    let receipt: UsageReceipt | undefined;
    try {
      voice = await this.db.transaction(async (tx) => {
        // The user's row lock makes the slot check and the insert one step for this user.
        const locked = await this.users.lockById(tx, user.id);
        if (!locked) throw errors.unauthenticated();
        // Everything the Voice needs that is short, named at once: one purchase then covers it.
        const slotsFull = (await this.voices.countByOwner(user.id, tx)) >= locked.modelStorageSlotsTotal;
        const noTraining = (await this.usage.remaining(user.id, 'modelsTrained', tx)) < 1;
        if (slotsFull) throw errors.insufficientLimit('storageSlots', noTraining ? ['modelsTrained'] : []);
        receipt = await this.usage.consume(user.id, 'modelsTrained', 1, { tx });
        await this.onboarding.reachedFirstVoice(locked, tx);
        return this.voices.insert(
          {
            id,
            userId: user.id,
            name: input.name,
            status: 'pending',
            progress: 0,
            statusMessage: 'Waiting for a free trainer',
            pipelineId,
            characters: input.characters,
          },
          tx,
        );
      });
    } catch (error) {
      await this.storage.remove(voiceFolder(id));
      throw error;
    }

    try {
      await (await this.jobs.get()).enqueueTraining(id, pipelineId);
    } catch (error) {
      // Nothing will train it: undo the Voice and give the training back.
      await this.voices.deleteOwned(id, user.id);
      await this.storage.remove(voiceFolder(id));
      await this.usage.refund(user.id, 'modelsTrained', 1, receipt);
      throw error;
    }
    await this.events?.record(id, { stage: 'queued', message: 'Training queued' });
    return toVoiceView(voice, user);
  }
}
