// Greedy answers decoded by the trainer's own PyTorch model (generate.py): on a machine with a
// GPU, a Voice's pairs can be written there, all passages in one batch. For the same GGUF file
// and prompt tokens, in float32, it gives llama.cpp's greedy tokens (generate.test.ts).
import { runTrainer, type TrainerProcess } from './python.js';

export interface GenerateOnTrainerRequest {
  modelPath: string;
  /** The trainer's adapter.safetensors; the plain base model when absent. */
  adapterPath?: string;
  /** Prompt token ids, as the model reads them (BOS included where the model has one). */
  prompts: number[][];
  /** Token budget of each prompt's answer. */
  maxNew: number[];
  /** Tokens that end an answer (not part of it): the model's end-of-generation tokens. */
  stopIds: number[];
  /** A PyTorch device ("cuda", "cpu"); CUDA when present by default. */
  device?: string;
  /** Prompts decoded at once; all of them by default. */
  batchSize?: number;
  /**
   * bfloat16 products, as training's mixed precision: true, false (float32: the tokens
   * llama.cpp's are compared with), or "auto" (where the device runs them fast). When absent,
   * "auto" on a GPU and float32 on a CPU.
   */
  mixedPrecision?: 'auto' | boolean;
  threads?: number;
  /** A serving trainer to decode on (its model stays loaded for what follows), else one of its own. */
  trainer?: TrainerProcess;
  signal?: AbortSignal;
  /** Called as each answer is complete, in the order they finish. */
  onAnswer?: (index: number, tokens: number[]) => void;
  /**
   * Called as decoding advances, about once a second and at the end: `done` of the `total`
   * tokens the batches can take (each batch counts its largest budget; all of it once it ends).
   */
  onDecoding?: (done: number, total: number) => void;
}

/** The generated token ids of each prompt, in the order of `prompts`. */
export async function generateOnTrainer(req: GenerateOnTrainerRequest): Promise<number[][]> {
  if (req.maxNew.length !== req.prompts.length) {
    throw new Error(`${req.prompts.length} prompts but ${req.maxNew.length} token budgets`);
  }
  if (req.prompts.length === 0) return [];
  const done = await runTrainer(
    'generate',
    {
      model: req.modelPath,
      adapter: req.adapterPath ?? null,
      prompts: req.prompts,
      max_new: req.maxNew,
      stop_ids: req.stopIds,
      device: req.device ?? null,
      batch_size: req.batchSize ?? null,
      mixed_precision: req.mixedPrecision ?? null,
    },
    {
      ...(req.threads ? { threads: req.threads } : {}),
      ...(req.trainer ? { trainer: req.trainer } : {}),
      ...(req.signal ? { signal: req.signal } : {}),
      onEvent: (e) => {
        if (e.event === 'answer' && req.onAnswer) req.onAnswer(Number(e.index), e.tokens as number[]);
        if (e.event === 'decoding' && req.onDecoding) req.onDecoding(Number(e.done), Number(e.total));
      },
    },
  );
  const outputs = done.outputs;
  if (!Array.isArray(outputs) || outputs.length !== req.prompts.length) {
    throw new Error(
      `the trainer answered ${Array.isArray(outputs) ? outputs.length : 'no'} of ${req.prompts.length} prompts`,
    );
  }
  return outputs as number[][];
}
