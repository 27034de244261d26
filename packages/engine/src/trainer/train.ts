// The TypeScript side of training: writes the examples as JSON lines, runs the trainer and
// turns its progress lines into a percentage with an estimate of the time left.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runTrainer, type TrainerEvent, type TrainerProcess } from './python.js';

export interface TrainingExample {
  /** Prompt tokens: seen, not learned. */
  input: number[];
  /** Tokens the model learns to produce. */
  target: number[];
}

export interface TrainingPreset {
  rank: number;
  alpha: number;
  targets: string[];
  lr: number;
  epochs: number;
  seqLen: number;
  batchSize: number;
  warmupSteps: number;
  gradCheckpointing: boolean;
  /**
   * Tokens one forward and backward pass takes at most: a larger batch is summed over several
   * (the same gradient, less memory). The whole batch at once when absent; 'auto': as many as
   * fit the device (measured on CUDA; 1024 on the CPU, where a larger pass is no faster).
   */
  microBatchTokens?: number | 'auto';
  /**
   * Training matrix products in bfloat16 (weights, optimiser and eval loss stay float32): 'auto'
   * where the device runs them measurably faster (AVX-512 BF16 or AMX CPUs, recent GPUs).
   * Float32 when absent.
   */
  mixedPrecision?: 'auto' | boolean;
}

export const TRAINING_PRESETS: Record<'tiny' | 'standard', TrainingPreset> = {
  // For the tiny house model and tests: a few minutes on two cores.
  tiny: {
    rank: 8,
    alpha: 16,
    targets: ['attn_q', 'attn_k', 'attn_v', 'attn_output', 'ffn_gate', 'ffn_up', 'ffn_down'],
    lr: 2e-3,
    epochs: 2,
    seqLen: 128,
    batchSize: 8,
    warmupSteps: 5,
    gradCheckpointing: false,
  },
  // For real base models (135M to 0.5B parameters).
  standard: {
    rank: 16,
    alpha: 32,
    targets: ['attn_q', 'attn_k', 'attn_v', 'attn_output', 'ffn_gate', 'ffn_up', 'ffn_down'],
    lr: 2e-4,
    epochs: 2,
    seqLen: 512,
    batchSize: 4,
    warmupSteps: 20,
    gradCheckpointing: true,
  },
};

export interface TrainProgress {
  step: number;
  total: number;
  percent: number;
  loss: number;
  tokensPerSecond: number;
  etaSeconds: number;
}

export interface TrainRequest {
  mode: 'lora' | 'full';
  modelPath: string;
  workDir: string;
  train: TrainingExample[];
  eval?: TrainingExample[];
  preset: TrainingPreset;
  padId: number;
  seed?: number;
  maxSteps?: number;
  /**
   * Measure the eval loss after every epoch, stop at the first epoch that does not lower it and
   * keep the weights of the best one. Needs `eval` and more than one epoch; off by default, so a
   * run cut by maxSteps (the house model) trains every step.
   */
  stopWhenEvalStopsImproving?: boolean;
  /**
   * Also measure the eval loss before the first step (LoRA only): the adapter starts at zero, so
   * that is the base model's loss, measured without a second process loading the model.
   */
  measureBaseEvalLoss?: boolean;
  checkpointEvery?: number;
  threads?: number;
  /** A serving trainer to train on (one that has just paraphrased has the model loaded), else one of its own. */
  trainer?: TrainerProcess;
  signal?: AbortSignal;
  onProgress?: (p: TrainProgress) => void;
  onEvent?: (e: TrainerEvent) => void;
}

export interface TrainResult {
  steps: number;
  finalLoss: number;
  /** The eval loss of the weights returned (the best epoch's when stopping early). */
  evalLoss?: number;
  /** With measureBaseEvalLoss: the base model's eval loss. */
  baseEvalLoss?: number;
  /** Each held-out example's own mean loss, of the weights returned and of the base (as above). */
  evalExampleLosses?: number[];
  baseEvalExampleLosses?: number[];
  /** With stopWhenEvalStopsImproving: the epoch (from 1) whose weights were kept. */
  bestEpoch?: number;
  /** With stopWhenEvalStopsImproving: the eval loss after each epoch run. */
  evalLosses?: number[];
  stoppedEarly?: boolean;
  adapterPath?: string;
  weightsPath?: string;
}

/** A preset as the Python trainer's `train` request spells it (the Voice presets' copy for the GPU bench too). */
export function trainerSettings(p: TrainingPreset) {
  return {
    rank: p.rank,
    alpha: p.alpha,
    targets: p.targets,
    lr: p.lr,
    epochs: p.epochs,
    seq_len: p.seqLen,
    batch_size: p.batchSize,
    warmup_steps: p.warmupSteps,
    grad_checkpointing: p.gradCheckpointing,
    micro_batch_tokens: p.microBatchTokens ?? null,
    mixed_precision: p.mixedPrecision ?? false,
  };
}

export const toJsonl = (examples: TrainingExample[]) => `${examples.map((e) => JSON.stringify(e)).join('\n')}\n`;

/** Trains; a second call with the same workDir and settings resumes from the checkpoint. */
export async function train(req: TrainRequest): Promise<TrainResult> {
  mkdirSync(req.workDir, { recursive: true });
  const trainPath = path.join(req.workDir, 'train.jsonl');
  writeFileSync(trainPath, toJsonl(req.train));
  let evalPath: string | undefined;
  if (req.eval?.length) {
    evalPath = path.join(req.workDir, 'eval.jsonl');
    writeFileSync(evalPath, toJsonl(req.eval));
  }
  const done = await runTrainer(
    'train',
    {
      mode: req.mode,
      model: req.modelPath,
      train: trainPath,
      eval: evalPath,
      out_dir: req.workDir,
      ...trainerSettings(req.preset),
      pad_id: req.padId,
      seed: req.seed ?? 0,
      max_steps: req.maxSteps ?? null,
      stop_when_eval_stops_improving: req.stopWhenEvalStopsImproving ?? false,
      eval_base: req.measureBaseEvalLoss ?? false,
      checkpoint_every: req.checkpointEvery ?? 25,
    },
    {
      ...(req.threads ? { threads: req.threads } : {}),
      ...(req.trainer ? { trainer: req.trainer } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      onEvent: (e) => {
        req.onEvent?.(e);
        if (e.event === 'progress' && req.onProgress) {
          const step = Number(e.step);
          const total = Number(e.total);
          req.onProgress({
            step,
            total,
            percent: total ? (100 * step) / total : 0,
            loss: Number(e.loss_avg),
            tokensPerSecond: Number(e.tokens_per_second),
            etaSeconds: Number(e.eta_seconds),
          });
        }
      },
    },
  );
  return {
    steps: Number(done.steps),
    finalLoss: Number(done.final_loss),
    ...(done.eval_loss !== undefined ? { evalLoss: Number(done.eval_loss) } : {}),
    ...(done.base_eval_loss !== undefined ? { baseEvalLoss: Number(done.base_eval_loss) } : {}),
    ...(Array.isArray(done.eval_example_losses) ? { evalExampleLosses: done.eval_example_losses.map(Number) } : {}),
    ...(Array.isArray(done.base_eval_example_losses)
      ? { baseEvalExampleLosses: done.base_eval_example_losses.map(Number) }
      : {}),
    ...(done.best_epoch !== undefined ? { bestEpoch: Number(done.best_epoch) } : {}),
    ...(Array.isArray(done.eval_losses) ? { evalLosses: done.eval_losses.map(Number) } : {}),
    ...(done.stopped_early !== undefined ? { stoppedEarly: Boolean(done.stopped_early) } : {}),
    ...(typeof done.adapter === 'string' ? { adapterPath: done.adapter } : {}),
    ...(typeof done.weights === 'string' ? { weightsPath: done.weights } : {}),
  };
}
