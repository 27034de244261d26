// Voices a user owns or can see: listing, renaming, publishing, deleting and forking.
// Creating and training are in voice-creation.service and workers/; waking and sleeping in
// activation.service.
import { type Voice, type VoiceEvaluation, voiceEvaluationSchema } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { BaseModelIdentity } from '../engine/base-model.service.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { voicePolicy } from '../policies/index.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { copyForFork, peftBaseModelFile, tidyForkedFiles, voiceFolder } from '../storage/voice-files.js';
import type { UsersService } from './users.service.js';
import { managedVoice, visibleVoice } from './voice-access.js';
import { baseModelView, carriedBase, type ServerBaseModel } from './voice-base-model.js';

/**
 * The stored evaluation when it has the current shape; older or foreign JSON shows as none.
 * Its samples quote the owner's training writing, so only the owner sees them (`withSamples`).
 */
const evaluationOf = (value: unknown, withSamples: boolean): VoiceEvaluation | null => {
  const parsed = voiceEvaluationSchema.safeParse(value);
  if (!parsed.success) return null;
  return withSamples ? parsed.data : { ...parsed.data, samples: [] };
};

/** Whole seconds from `now` to the training's estimated end: none while it estimates, 0 once overdue. */
const secondsLeft = (v: VoiceRow, now: Date): number | null =>
  v.status === 'training' && v.estimatedDoneAt
    ? Math.max(0, Math.ceil((v.estimatedDoneAt.getTime() - now.getTime()) / 1000))
    : null;

/**
 * A Voice as the API shows it to `viewer`, its time left counted from `now` (the service's clock),
 * its base model compared with `server`'s (this server's, once known).
 */
export const toVoiceView = (
  v: VoiceRow & { ownerName?: string },
  viewer?: Pick<UserRow, 'id'>,
  now: Date = new Date(),
  server?: BaseModelIdentity,
): Voice => ({
  _id: v.id,
  name: v.name,
  status: v.status,
  progress: v.progress,
  statusMessage: v.statusMessage ?? null,
  isPublic: v.isPublic,
  createdAt: v.createdAt.toISOString(),
  pipeline_id: v.pipelineId ?? null,
  stage: v.status === 'training' ? (v.stage ?? null) : null,
  etaSeconds: secondsLeft(v, now),
  estimatedDoneAt: v.status === 'training' ? (v.estimatedDoneAt?.toISOString() ?? null) : null,
  characters: v.characters ?? null,
  evaluation: evaluationOf(v.evaluation, viewer !== undefined && voicePolicy.canSeeTrainingText(viewer, v)),
  baseModel: baseModelView(v, server),
  ...(v.ownerName !== undefined ? { ownerName: v.ownerName } : {}),
  ...(viewer
    ? {
        isOwner: v.userId === viewer.id,
        canDownload: voicePolicy.canDownload(viewer, v) && (v.status === 'ready' || v.status === 'active'),
      }
    : {}),
});

export class VoicesService {
  constructor(
    private readonly db: Database,
    private readonly voices: VoicesRepository,
    private readonly users: UsersRepository,
    private readonly storage: ArtifactStorage,
    private readonly clock: Clock,
    private readonly awake: { release(voice: VoiceRow): Promise<void> },
    private readonly onboarding: Pick<UsersService, 'reachedFirstVoice'>,
    private readonly base: ServerBaseModel,
  ) {}

  async listOwn(user: UserRow): Promise<Voice[]> {
    const now = this.clock.now();
    const server = await this.base.known();
    return (await this.voices.listByOwner(user.id)).map((v) =>
      toVoiceView({ ...v, ownerName: user.username }, user, now, server),
    );
  }

  async listPublic(user: UserRow): Promise<Voice[]> {
    const now = this.clock.now();
    const server = await this.base.known();
    return (await this.voices.listPublic()).map((v) => toVoiceView(v, user, now, server));
  }

  /** A Voice the user may see; 404 otherwise, so others' private Voices stay invisible. */
  visible(user: UserRow, id: string): Promise<VoiceRow> {
    return visibleVoice(this.voices, user, id);
  }

  async get(user: UserRow, id: string): Promise<Voice> {
    return toVoiceView(await this.visible(user, id), user, this.clock.now(), await this.base.known());
  }

  private managed(user: UserRow, id: string): Promise<VoiceRow> {
    return managedVoice(this.voices, user, id, 'Only the owner of this Voice can change it.');
  }

  async update(
    user: UserRow,
    id: string,
    patch: { name?: string | undefined; isPublic?: boolean | undefined },
  ): Promise<Voice> {
    const voice = await this.managed(user, id);
    if (patch.isPublic !== undefined && !voicePolicy.canChangeVisibility(voice, patch.isPublic)) {
      throw errors.voiceNotReady('A Voice can be made public once it is trained (asleep or awake).');
    }
    const updated = await this.voices.update(voice.id, {
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.isPublic !== undefined ? { isPublic: patch.isPublic } : {}),
    });
    if (!updated) throw errors.notFound('Voice');
    return toVoiceView(updated, user, this.clock.now(), await this.base.known());
  }

  async delete(user: UserRow, id: string): Promise<void> {
    const voice = await this.managed(user, id);
    // An awake Voice is put to sleep (and its time charged) before it goes.
    await this.awake.release(voice);
    if (!(await this.voices.deleteOwned(voice.id, user.id))) throw errors.notFound('Voice');
    // The row goes first: a failure to remove files leaves an orphan folder, never a Voice without files.
    await this.storage.remove(voiceFolder(voice.id));
  }

  /** At start: forks made before they took only the adapter lose the evaluation they copied. */
  async tidyForks(): Promise<void> {
    await tidyForkedFiles(this.storage, await this.voices.listForks());
  }

  /**
   * At start: a Voice trained before its base model was recorded (migration 0020) keeps the model
   * file its adapter's PEFT export names, so its page says which file it was and a wake on another
   * model is refused by name. Evidence, not proof: its base stays unknown (decision 31).
   */
  async recallBaseModels(): Promise<void> {
    for (const voice of await this.voices.listUnknownBase()) {
      const file = await peftBaseModelFile(this.storage, voice.adapterKey);
      if (file) await this.voices.recallBaseFile(voice.id, file);
    }
  }

  /**
   * Copies a trained Voice the user can see into a new private Voice of theirs. Like creating
   * one, it runs in one transaction under the user's row lock (the storage-slot check and the
   * insert are one step), and it holds the source's row while copying its files, so a delete of
   * the source waits for the copy, or has happened and the fork is refused: never a fork
   * without files. The fork carries no training text: it gets the adapter and its PEFT export,
   * never the evaluation file or the samples in the row, which quote the owner's writing.
   */
  async fork(user: UserRow, id: string): Promise<Voice> {
    await this.visible(user, id);
    const forkId = newId(this.clock.now());
    try {
      const created = await this.db.transaction(async (tx) => {
        const locked = await this.users.lockById(tx, user.id);
        if (!locked) throw errors.unauthenticated();
        const source = await this.voices.lockForShare(tx, id);
        if (!source || !voicePolicy.canView(locked, source)) throw errors.notFound('Voice');
        if (!voicePolicy.canFork(locked, source)) throw errors.voiceNotReady('Only a trained Voice can be forked.');
        if ((await this.voices.countByOwner(user.id, tx)) >= locked.modelStorageSlotsTotal) {
          throw errors.insufficientLimit('storageSlots');
        }
        if (!source.adapterKey || !(await this.storage.exists(source.adapterKey))) {
          throw errors.voiceNotReady('This Voice’s files are not available, so it cannot be forked.');
        }
        const adapterKey = await copyForFork(this.storage, { id: source.id, adapterKey: source.adapterKey }, forkId);
        const evaluation = evaluationOf(source.evaluation, false);
        const row = await this.voices.insert(
          {
            id: forkId,
            userId: user.id,
            name: source.name,
            status: 'ready',
            progress: 100,
            isPublic: false,
            pipelineId: source.pipelineId,
            adapterKey,
            forkedFromId: source.id,
            characters: source.characters,
            evaluation,
            // A fork is its source's adapter: trained when it was, on its source's base model.
            trainedAt: source.trainedAt,
            ...carriedBase(source),
          },
          tx,
        );
        await this.onboarding.reachedFirstVoice(locked, tx);
        return row;
      });
      return toVoiceView(created, user, this.clock.now(), await this.base.known());
    } catch (error) {
      await this.storage.remove(voiceFolder(forkId));
      throw error;
    }
  }
}
