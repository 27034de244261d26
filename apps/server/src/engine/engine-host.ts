// The one VoiceEngine of this process: started on first use, once the base model is found,
// and shared by Voice training (pairs, evaluation) and by awake Voices. Generations read through
// streamText (or engineErrors) answer a Voice put to sleep under them with the person's error.
import path from 'node:path';
import { textDeltas, VOICE_PRESETS, VoiceEngine, VoiceNotAwakeError, type VoicePreset } from '@ownvoice/engine';
import { errors } from '../errors.js';
import type { BaseModelService } from './base-model.service.js';

export interface BaseModelInfo {
  path: string;
  /** File name without .gguf; written into PEFT exports as the base model's name. */
  name: string;
  /** The house model stands in (offline, or asked for): trains with the tiny preset. */
  isHouse: boolean;
}

/** The training preset, and with it the passage (and Convert chunk) size, for a base model. */
export const presetFor = (model: BaseModelInfo, configured: 'tiny' | 'standard' | undefined): VoicePreset =>
  VOICE_PRESETS[configured ?? (model.isHouse ? 'tiny' : 'standard')];

export class EngineHost {
  private engine: Promise<VoiceEngine> | undefined;

  constructor(
    private readonly baseModel: BaseModelService,
    private readonly threads?: number,
  ) {}

  /** The base model, or the engine-unavailable error while it is still being found. */
  model(): BaseModelInfo {
    const file = this.baseModel.modelPath;
    if (!file) throw errors.engineUnavailable(this.baseModel.status.message);
    return { path: file, name: path.basename(file, '.gguf'), isHouse: this.baseModel.status.source === 'house' };
  }

  get(): Promise<VoiceEngine> {
    const { path: modelPath } = this.model();
    this.engine ??= VoiceEngine.start({ modelPath, ...(this.threads ? { threads: this.threads } : {}) }).catch(
      (error: unknown) => {
        this.engine = undefined;
        throw error;
      },
    );
    return this.engine;
  }

  /** The engine when it has been started, without starting it. */
  async started(): Promise<VoiceEngine | undefined> {
    return this.engine?.catch(() => undefined);
  }

  async dispose(): Promise<void> {
    const engine = await this.started();
    this.engine = undefined;
    await engine?.dispose();
  }
}

/**
 * The events of an engine generation, with its failures as the person's errors: a Voice put to
 * sleep (or deleted) under the generation is VOICE_NOT_READY with the reason to read.
 */
export async function* engineErrors<T>(events: AsyncIterable<T>): AsyncGenerator<T> {
  try {
    yield* events;
  } catch (error) {
    if (error instanceof VoiceNotAwakeError) throw errors.voiceNotReady(error.reason);
    throw error;
  }
}

/** A callback-streaming engine call (`onChunk`) as an async iterable of its text deltas. */
export const streamText = (
  signal: AbortSignal,
  run: (onChunk: (text: string) => void) => Promise<unknown>,
): AsyncGenerator<string> => engineErrors(textDeltas(signal, run));
