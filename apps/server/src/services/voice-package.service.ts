// Taking a Voice home and bringing it into another OwnVoice (the package: the engine's
// voice/voice-package.ts). Downloading is the owner's, of a Voice they trained or imported
// (policies: a fork stays in OwnVoice); the package names the Voice's own base model, not this
// server's (decision 31). Importing checks the package in a child process against the base model
// this server runs, by the SHA-256 of its file first, then every file a model server will read; it
// then makes a ready Voice of it, recording the package's base, in one transaction under the
// user's row lock, as forking does: a storage slot, not a training.
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  buildMergedModel,
  buildVoicePackage,
  importVoicePackage,
  MergeError,
  type ModelHparams,
  VoicePackageError,
  voicePackageManifest,
} from '@ownvoice/engine';
import { VOICE_PACKAGE_MESSAGES, type Voice, voiceEvaluationSchema } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import { REQUEST_FOLDER_PREFIXES } from '../data-folder.js';
import type { Database } from '../db/client.js';
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { BaseModelIdentity } from '../engine/base-model.service.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { voicePolicy } from '../policies/index.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { VoicesRepository } from '../repositories/voices.repository.js';
import type { ArtifactStorage } from '../storage/artifact-storage.js';
import { adapterFolderKey, PEFT_FOLDER, voiceFolder } from '../storage/voice-files.js';
import { VERSION } from '../version.js';
import type { UsersService } from './users.service.js';
import { managedVoice } from './voice-access.js';
import { packagedBase, recordedBase, refusalToMerge } from './voice-base-model.js';
import { toVoiceView } from './voices.service.js';

export interface VoicePackageDeps {
  /** The base model this server runs, as a package names it. */
  baseModel: () => Promise<BaseModelIdentity>;
  /** The training preset this server's Voices are trained with. */
  preset: () => string;
  /** The shape of the base model this server runs: an imported adapter must fit it. */
  baseHparams: () => ModelHparams;
  /** The base model's file, which a merged model is built from. */
  basePath: () => string;
  /** Where a merged model is built while its download runs (the data folder's tmp/). */
  tempDir: string;
}

/** A merged model ready to send: its file, removed by `release` once the answer is done with it. */
export interface MergedModel {
  fileName: string;
  file: string;
  bytes: number;
  release: () => Promise<void>;
}

/** A file name for a download: the Voice's name in plain characters. */
const downloadName = (voice: VoiceRow, extension: 'zip' | 'gguf'): string =>
  `${
    voice.name
      .normalize('NFKD')
      .replace(/[^\w -]+/g, '')
      .trim()
      .replace(/\s+/g, '-')
      .slice(0, 60) || 'voice'
  }-ownvoice.${extension}`;

/**
 * When the Voice's training ended. One trained before that was recorded (migration 0023) has the
 * time its adapter file was written: at the end of its training, for a Voice trained here.
 */
async function trainingEndedAt(voice: VoiceRow, ggufPath: string): Promise<Date> {
  return voice.trainedAt ?? (await stat(ggufPath)).mtime;
}

export class VoicePackageService {
  constructor(
    private readonly db: Database,
    private readonly voices: VoicesRepository,
    private readonly users: UsersRepository,
    private readonly onboarding: Pick<UsersService, 'reachedFirstVoice'>,
    private readonly storage: ArtifactStorage,
    private readonly clock: Clock,
    private readonly deps: VoicePackageDeps,
  ) {}

  /** The owner's Voice as a .zip: its adapter for llama.cpp and PEFT, manifest, Modelfile, README. */
  async download(user: UserRow, voiceId: string): Promise<{ fileName: string; data: Buffer }> {
    const { voice, ggufPath, peftDir } = await this.trainedVoice(user, voiceId);
    const evaluation = voiceEvaluationSchema.safeParse(voice.evaluation);
    const manifest = await voicePackageManifest({
      name: voice.name,
      characters: voice.characters,
      trainedAt: await trainingEndedAt(voice, ggufPath),
      // The Voice's own base model; one whose base was not recorded is taken to be this server's.
      baseModel: packagedBase(voice, await this.deps.baseModel()),
      peftDir,
      preset: this.deps.preset(),
      evaluation: evaluation.success ? evaluation.data : null,
      exportedBy: { app: 'OwnVoice', version: VERSION },
    });
    const data = await buildVoicePackage(manifest, { ggufPath, peftDir });
    return { fileName: downloadName(voice, 'zip'), data };
  }

  /**
   * The owner's Voice merged into its base model: one GGUF file for apps that run a model file but
   * cannot load an adapter beside it. Built in a child process (the engine's merged-model.ts) from
   * this server's base model, which must be the one the Voice was trained on.
   */
  async mergedModel(user: UserRow, voiceId: string): Promise<MergedModel> {
    const { voice, ggufPath } = await this.trainedVoice(user, voiceId);
    const ours = await this.deps.baseModel();
    const refusal = refusalToMerge(voice, ours);
    if (refusal) throw errors.baseModelMismatch(refusal);
    await mkdir(this.deps.tempDir, { recursive: true, mode: 0o700 });
    const folder = await mkdtemp(path.join(this.deps.tempDir, REQUEST_FOLDER_PREFIXES.merge));
    const release = () => rm(folder, { recursive: true, force: true });
    try {
      const file = path.join(folder, 'model.gguf');
      const job = { basePath: this.deps.basePath(), adapterPath: ggufPath, outPath: file, name: voice.name };
      const { bytes } = await buildMergedModel(job, { owner: user.id, baseBytes: ours.bytes });
      return { fileName: downloadName(voice, 'gguf'), file, bytes, release };
    } catch (error) {
      await release();
      if (error instanceof MergeError) throw errors.mergeFailed(VOICE_PACKAGE_MESSAGES.mergeFailed(error.message));
      throw error;
    }
  }

  /** The owner's trained Voice and its adapter's files: what both downloads are made of. */
  private async trainedVoice(user: UserRow, voiceId: string) {
    const voice = await managedVoice(this.voices, user, voiceId, 'Only the owner of this Voice can download it.');
    if (!voicePolicy.canDownload(user, voice)) throw errors.forbidden(VOICE_PACKAGE_MESSAGES.forkNotExported);
    const ggufKey = voice.adapterKey;
    const peftKey = ggufKey && `${path.posix.dirname(ggufKey)}/${PEFT_FOLDER}`;
    if (!ggufKey || !peftKey || !(await this.storage.exists(ggufKey)) || !(await this.storage.exists(peftKey))) {
      throw errors.voiceNotReady(VOICE_PACKAGE_MESSAGES.notTrained);
    }
    return { voice, ggufPath: this.storage.localPath(ggufKey), peftDir: this.storage.localPath(peftKey) };
  }

  /** Refuses, before a package is received, an account whose storage slots are all taken. */
  async checkRoom(user: UserRow): Promise<void> {
    const fresh = await this.users.findById(user.id);
    if (!fresh) throw errors.unauthenticated();
    if ((await this.voices.countByOwner(user.id)) >= fresh.modelStorageSlotsTotal) {
      throw errors.insufficientLimit('storageSlots');
    }
  }

  /**
   * A received package made into a ready Voice of `user`'s, on this server's base model. It is
   * unpacked and checked in a child process (the engine's voice-package-import.ts) straight into
   * the new Voice's folder; the row follows in one transaction that takes the storage slot.
   */
  async import(user: UserRow, received: { file: string; bytes: number }): Promise<Voice> {
    const ours = await this.deps.baseModel();
    const id = newId(this.clock.now());
    const ggufName = `voice-${id.slice(-8)}.gguf`;
    const adapterKey = `${adapterFolderKey(id)}/${ggufName}`;
    try {
      const unpacked = await this.unpack(user, received, { folder: adapterFolderKey(id), ggufName, ours });
      const manifest = unpacked.manifest;
      const theirs = manifest.baseModel;
      const created = await this.db.transaction(async (tx) => {
        const locked = await this.users.lockById(tx, user.id);
        if (!locked) throw errors.unauthenticated();
        if ((await this.voices.countByOwner(user.id, tx)) >= locked.modelStorageSlotsTotal) {
          throw errors.insufficientLimit('storageSlots');
        }
        const row = await this.voices.insert(
          {
            id,
            userId: user.id,
            name: manifest.voice.name,
            status: 'ready',
            progress: 100,
            statusMessage: 'Imported from a Voice package',
            isPublic: false,
            adapterKey,
            characters: manifest.voice.characters,
            trainedAt: new Date(manifest.voice.trainedAt),
            evaluation: manifest.evaluation ? { ...manifest.evaluation, samples: [] } : null,
            // The package's base, which is this server's by its SHA-256 (checked in unpacking);
            // the package's name for it when it has one.
            ...recordedBase({ ...theirs, name: theirs.name ?? theirs.huggingFace ?? ours.name }),
          },
          tx,
        );
        await this.onboarding.reachedFirstVoice(locked, tx);
        return row;
      });
      return toVoiceView(created, user, this.clock.now(), ours);
    } catch (error) {
      await this.storage.remove(voiceFolder(id));
      throw error;
    }
  }

  /** Unpacks into the Voice's folder; refusals as the API's errors. */
  private async unpack(
    user: UserRow,
    received: { file: string; bytes: number },
    target: { folder: string; ggufName: string; ours: BaseModelIdentity },
  ) {
    let reply: Awaited<ReturnType<typeof importVoicePackage>>;
    try {
      reply = await importVoicePackage(
        {
          packagePath: received.file,
          folder: this.storage.localPath(target.folder),
          ggufName: target.ggufName,
          base: this.deps.baseHparams(),
          baseSha256: target.ours.sha256,
          baseModelName: target.ours.name,
        },
        { owner: user.id, bytes: received.bytes },
      );
    } catch (error) {
      if (error instanceof VoicePackageError) throw errors.voicePackageInvalid(error.message);
      throw error;
    }
    if (!reply.ok) {
      const name = (m: { file: string; sha256: string }) => `${m.file} (SHA-256 ${m.sha256.slice(0, 12)}…)`;
      throw errors.baseModelMismatch(VOICE_PACKAGE_MESSAGES.otherBaseModel(name(reply.otherBase), name(target.ours)));
    }
    return reply;
  }
}
