// Held-out loss and perplexity of a model on examples it never trained on, with or without a
// Voice's adapter: "how much better does the Voice predict this person's own writing".
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runTrainer, TrainerError } from './python.js';
import { type TrainingExample, toJsonl } from './train.js';

export interface HeldOutLoss {
  /** Mean cross-entropy per target token, in nats. */
  loss: number;
  perplexity: number;
  /** Each example's own mean cross-entropy per target token, in the order given. */
  exampleLosses: number[];
}

export async function heldOutLoss(req: {
  modelPath: string;
  /** The trainer's adapter.safetensors; the plain base model when absent. */
  adapterPath?: string;
  examples: TrainingExample[];
  workDir: string;
  seqLen: number;
  padId: number;
  threads?: number;
}): Promise<HeldOutLoss> {
  mkdirSync(req.workDir, { recursive: true });
  const examplesPath = path.join(req.workDir, 'held-out.jsonl');
  writeFileSync(examplesPath, toJsonl(req.examples));
  const done = await runTrainer(
    'eval',
    {
      model: req.modelPath,
      adapter: req.adapterPath ?? null,
      examples: examplesPath,
      seq_len: req.seqLen,
      pad_id: req.padId,
    },
    req.threads ? { threads: req.threads } : {},
  );
  const exampleLosses = Array.isArray(done.example_losses) ? done.example_losses.map(Number) : [];
  if (exampleLosses.length !== req.examples.length) {
    throw new TrainerError(`the trainer scored ${exampleLosses.length} of ${req.examples.length} examples`);
  }
  return { loss: Number(done.loss), perplexity: Number(done.perplexity), exampleLosses };
}
