// Finds the base model at start: the default is downloaded once into the data folder; when
// it cannot be fetched the house model stands in, and both the log and the web app say so.
import path from 'node:path';
import { type ResolvedBaseModel, resolveBaseModel } from '@ownvoice/engine';
import type { EngineStatus } from '@ownvoice/shared';

export class BaseModelService {
  private current: EngineStatus = {
    state: 'starting',
    model: null,
    source: null,
    fallbackReason: null,
    message: 'Preparing the language model',
    downloadPercent: null,
  };
  private resolved: ResolvedBaseModel | undefined;

  get status(): EngineStatus {
    return this.current;
  }

  /** The model file, once ready. */
  get modelPath(): string | undefined {
    return this.resolved?.path;
  }

  async start(options: {
    spec: string | undefined;
    dataDir: string;
    defaultSpec?: string;
    log: (message: string) => void;
  }): Promise<EngineStatus> {
    let lastLogged = -10;
    try {
      this.resolved = await resolveBaseModel({
        spec: options.spec,
        dataDir: options.dataDir,
        ...(options.defaultSpec ? { defaultSpec: options.defaultSpec } : {}),
        log: options.log,
        onProgress: (p) => {
          this.current = { ...this.current, message: 'Downloading the language model', downloadPercent: p.percent };
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
