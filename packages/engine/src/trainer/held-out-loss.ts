// Held-out loss and perplexity of a model on examples it never trained on, with or without a
// Voice's adapter: "how much better does the Voice predict this person's own writing".
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runTrainer } from './python.js';
import { type TrainingExample, toJsonl } from './train.js';

export interface HeldOutLoss {
  /** Mean cross-entropy per target token, in nats. */
  loss: number;
  perplexity: number;
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
  return { loss: Number(done.loss), perplexity: Number(done.perplexity) };
}
