// A Voice belongs to the base model it was trained on (decision 31): what a Voice's row records of
// it, the model this server runs now, what the API shows, and the refusal to wake a Voice on
// another model. Whether a Voice fits is the policy's (voicePolicy.baseModelFit).

import { manifestBase } from '@ownvoice/engine';
import {
  describeBaseModel,
  VOICE_BASE_MODEL_MESSAGES,
  VOICE_PACKAGE_MESSAGES,
  type VoiceBaseModel,
  type VoicePackageManifest,
} from '@ownvoice/shared';
import type { VoiceRow } from '../db/schema.js';
import type { BaseModelIdentity, BaseModelService } from '../engine/base-model.service.js';
import { errors } from '../errors.js';
import { voicePolicy } from '../policies/index.js';

/** The columns of a Voice's row that record its base model. */
export type VoiceBaseColumns = Pick<
  VoiceRow,
  'baseModelState' | 'baseModelName' | 'baseModelFile' | 'baseModelSha256' | 'baseModelBytes'
>;

/** The base model as a Voice records it: what names it, and the SHA-256 that identifies it. */
export type ModelRecord = Pick<BaseModelIdentity, 'name' | 'file' | 'sha256' | 'bytes'>;

/** The columns of a Voice trained (or imported) on `model`. */
export const recordedBase = (model: ModelRecord): VoiceBaseColumns => ({
  baseModelState: 'recorded',
  baseModelName: model.name,
  baseModelFile: model.file,
  baseModelSha256: model.sha256,
  baseModelBytes: model.bytes,
});

/** What a fork carries from the Voice it copies: its base, recorded or not. */
export const carriedBase = (source: VoiceBaseColumns & Pick<VoiceRow, 'adapterKey'>): VoiceBaseColumns => ({
  baseModelState: source.baseModelState ?? (source.adapterKey ? 'unknown' : null),
  baseModelName: source.baseModelName,
  baseModelFile: source.baseModelFile,
  baseModelSha256: source.baseModelSha256,
  baseModelBytes: source.baseModelBytes,
});

/** A Voice's base as a sentence names it. */
const describeVoiceBase = (voice: VoiceBaseColumns): string =>
  describeBaseModel({ name: voice.baseModelName, file: voice.baseModelFile, sha256: voice.baseModelSha256 });

/** How long a view waits for this server's model to be hashed (once per start) before it says it cannot tell. */
const VIEW_WAIT_MS = 2_000;

/**
 * The base model this server runs. Its identity is the file's SHA-256, hashed once per start
 * (BaseModelService.identity); wakes wait for it, views only a moment (`known`).
 */
export class ServerBaseModel {
  private last: { promise: Promise<BaseModelIdentity>; value: BaseModelIdentity } | undefined;

  constructor(private readonly baseModel: Pick<BaseModelService, 'identity' | 'status'>) {}

  /** This server's base model; ENGINE_UNAVAILABLE while it is not ready. */
  async identity(): Promise<BaseModelIdentity> {
    const status = this.baseModel.status;
    if (status.state !== 'ready') throw errors.engineUnavailable(status.message);
    const promise = this.baseModel.identity();
    if (this.last?.promise === promise) return this.last.value;
    const value = await promise;
    this.last = { promise, value };
    return value;
  }

  /**
   * The identity for a view: undefined while the model is not ready, or while a large one is
   * still being hashed (the view then says it cannot tell, rather than keep the page waiting).
   */
  async known(): Promise<BaseModelIdentity | undefined> {
    if (this.baseModel.status.state !== 'ready') return undefined;
    if (this.last?.promise === this.baseModel.identity()) return this.last.value;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<undefined>((resolve) => {
      timer = setTimeout(() => resolve(undefined), VIEW_WAIT_MS);
      timer.unref();
    });
    try {
      return await Promise.race([this.identity().catch(() => undefined), waited]);
    } finally {
      clearTimeout(timer);
    }
  }
}

/** The Voice's base model as the API shows it; null until its training starts. */
export function baseModelView(
  voice: VoiceBaseColumns & Pick<VoiceRow, 'adapterKey'>,
  server: BaseModelIdentity | undefined,
): VoiceBaseModel | null {
  const state = voice.baseModelState ?? (voice.adapterKey ? 'unknown' : null);
  if (!state) return null;
  return {
    state,
    name: voice.baseModelName,
    file: voice.baseModelFile,
    sha256: voice.baseModelSha256,
    bytes: voice.baseModelBytes,
    onThisServer: voicePolicy.baseModelFit(voice, server),
    serverModel: server?.name ?? null,
  };
}

/** Why the Voice may not wake on this server's base model, in the owner's words; null when it may. */
export function refusalToWake(voice: VoiceBaseColumns, server: BaseModelIdentity): string | null {
  if (voicePolicy.baseModelFit(voice, server) !== 'other') return null;
  const ours = describeBaseModel(server);
  if (voice.baseModelState === 'recorded') {
    return VOICE_BASE_MODEL_MESSAGES.otherBaseModel(
      describeVoiceBase(voice),
      ours,
      voice.baseModelName ?? voice.baseModelFile ?? '',
    );
  }
  return VOICE_BASE_MODEL_MESSAGES.otherBaseModelFile(voice.baseModelFile ?? '', ours);
}

/** Why the Voice cannot be merged into this server's base model, in the owner's words; null when it can. */
export function refusalToMerge(voice: VoiceBaseColumns, server: BaseModelIdentity): string | null {
  if (voicePolicy.baseModelFit(voice, server) !== 'other') return null;
  return VOICE_PACKAGE_MESSAGES.notMergedHere(describeVoiceBase(voice), describeBaseModel(server));
}

/**
 * The base model a Voice's package names: the Voice's own. A Voice whose base was not recorded is
 * taken to be on this server's, as its wake takes it, unless its files name another model.
 */
export function packagedBase(voice: VoiceBaseColumns, server: BaseModelIdentity): VoicePackageManifest['baseModel'] {
  if (
    voice.baseModelState === 'recorded' &&
    voice.baseModelFile &&
    voice.baseModelSha256 &&
    voice.baseModelBytes !== null
  ) {
    return manifestBase({
      name: voice.baseModelName,
      file: voice.baseModelFile,
      sha256: voice.baseModelSha256,
      bytes: voice.baseModelBytes,
      // A recorded name that is an hf: URI is where the file came from.
      huggingFace: voice.baseModelName,
    });
  }
  if (voicePolicy.baseModelFit(voice, server) === 'other') {
    throw errors.baseModelMismatch(
      VOICE_BASE_MODEL_MESSAGES.notPackaged(voice.baseModelFile ?? '', describeBaseModel(server)),
    );
  }
  return manifestBase(server);
}
