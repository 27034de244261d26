// The VoiceEngine a training worker runs in its own process: started on first use, once the base
// model is found, for building a Voice's training pairs and evaluating it. Awake Voices do not
// run here: they live on inference endpoints (inference/inference-host.ts).
import path from 'node:path';
import { presetNameFor, VOICE_PRESETS, VoiceEngine, type VoicePreset } from '@ownvoice/engine';
import { errors } from '../errors.js';
import type { BaseModelIdentity, BaseModelService } from './base-model.service.js';

export interface BaseModelInfo {
  path: string;
  /** File name without .gguf; written into PEFT exports as the base model's name. */
  name: string;
  /** The house model stands in (offline, or asked for): trains with the tiny preset. */
  isHouse: boolean;
}

/**
 * What an operator changes of the preset (config.training): how many epochs it trains at most
 * (fewer: a shorter training and a Voice further from its writer), how many passages of the
 * writing it pairs and learns from at most (fewer: shorter paraphrasing and training, and a Voice
 * that saw less of its writer), and how many neutral paragraphs its evaluation rewrites (fewer: a
 * shorter last stage and a wider spread). Undefined keeps the preset's.
 */
export interface PresetChanges {
  epochs?: number | undefined;
  maxPassages?: number | undefined;
  evaluationParagraphs?: number | undefined;
}

/**
 * The training preset, and with it the passage (and Convert chunk) size, for a base model, with
 * the operator's changes.
 */
export function presetFor(
  model: BaseModelInfo,
  configured: 'tiny' | 'standard' | undefined,
  changes: PresetChanges = {},
): VoicePreset {
  const preset = VOICE_PRESETS[presetNameFor(model.isHouse, configured)];
  return {
    ...preset,
    ...(changes.epochs ? { epochs: changes.epochs } : {}),
    ...(changes.maxPassages ? { maxPassages: changes.maxPassages } : {}),
    ...(changes.evaluationParagraphs ? { evaluationParagraphs: changes.evaluationParagraphs } : {}),
  };
}

/** The base model, or the engine-unavailable error while it is still being found. */
export function baseModelInfo(baseModel: BaseModelService): BaseModelInfo {
  const file = baseModel.modelPath;
  if (!file) throw errors.engineUnavailable(baseModel.status.message);
  return { path: file, name: path.basename(file, '.gguf'), isHouse: baseModel.status.source === 'house' };
}

export class EngineHost {
  private engine: Promise<VoiceEngine> | undefined;

  constructor(
    private readonly baseModel: BaseModelService,
    private readonly threads?: number,
  ) {}

  model(): BaseModelInfo {
    return baseModelInfo(this.baseModel);
  }

  /** What names the base model exactly (its SHA-256 above all): what a Voice trained here records. */
  identity(): Promise<BaseModelIdentity> {
    this.model();
    return this.baseModel.identity();
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
