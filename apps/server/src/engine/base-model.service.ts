// Finds the base model at start: the default is downloaded once into the data folder; when
// it cannot be fetched the house model stands in, and both the log and the web app say so.
import path from 'node:path';
import {
  type BaseModelIdentity,
  baseModelIdentity,
  type ModelHparams,
  modelHparams,
  type ResolvedBaseModel,
  readGguf,
  resolveBaseModel,
} from '@ownvoice/engine';
import type { EngineStatus } from '@ownvoice/shared';

export type { BaseModelIdentity };

export class BaseModelService {
  private current: EngineStatus = {
    state: 'starting',
    model: null,
    source: null,
    fallbackReason: null,
    fallbacks: [],
    message: 'Preparing the language model',
    downloadPercent: null,
  };
  private resolved: ResolvedBaseModel | undefined;
  private hashed: Promise<BaseModelIdentity> | undefined;
  private shape: ModelHparams | undefined;

  get status(): EngineStatus {
    return this.current;
  }

  /** The model file, once ready. */
  get modelPath(): string | undefined {
    return this.resolved?.path;
  }

  /** The model's shape, read from its file once: what an imported adapter must fit. */
  hparams(): ModelHparams {
    const resolved = this.resolved;
    if (!resolved) throw new Error('the base model is not ready');
    this.shape ??= modelHparams(readGguf(resolved.path), resolved.path);
    return this.shape;
  }

  /**
   * What names the model exactly, for a Voice package: its file, size and SHA-256 (hashed once,
   * then kept), and where it is published when it was downloaded from Hugging Face.
   */
  identity(): Promise<BaseModelIdentity> {
    const resolved = this.resolved;
    if (!resolved) return Promise.reject(new Error('the base model is not ready'));
    this.hashed ??= baseModelIdentity(resolved);
    return this.hashed;
  }

  async start(options: {
    spec: string | undefined;
    dataDir: string;
    defaultSpec?: string;
    /** The chain after the default (tests shorten it or point pip elsewhere). */
    fallbacks?: readonly string[];
    pipEnv?: NodeJS.ProcessEnv;
    log: (message: string) => void;
    /** Each fallback step, and what it means for quality (the log's warn level). */
    warn?: (message: string) => void;
  }): Promise<EngineStatus> {
    let lastLogged = -10;
    try {
      this.hashed = undefined;
      this.shape = undefined;
      this.resolved = await resolveBaseModel({
        spec: options.spec,
        dataDir: options.dataDir,
        ...(options.defaultSpec ? { defaultSpec: options.defaultSpec } : {}),
        ...(options.fallbacks ? { fallbacks: options.fallbacks } : {}),
        ...(options.pipEnv ? { pipEnv: options.pipEnv } : {}),
        log: options.log,
        warn: options.warn ?? options.log,
        onProgress: (p) => {
          this.current = { ...this.current, message: 'Downloading the language model', downloadPercent: p.percent };
          if (p.percent < lastLogged) lastLogged = -10; // the next model of the chain
          if (p.percent - lastLogged >= 10) {
            lastLogged = p.percent;
            options.log(`downloading the base model: ${p.percent.toFixed(0)}%`);
          }
        },
      });
      this.current = {
        state: 'ready',
        model: path.basename(this.resolved.path),
        source: this.resolved.source,
        fallbackReason: this.resolved.fallbackReason ?? null,
        fallbacks: this.resolved.fallbacks ?? [],
        message: null,
        downloadPercent: null,
      };
    } catch (error) {
      this.current = {
        ...this.current,
        state: 'unavailable',
        message: (error as Error).message,
        downloadPercent: null,
      };
      options.log(`the language model is unavailable: ${(error as Error).message}`);
    }
    return this.current;
  }
}
