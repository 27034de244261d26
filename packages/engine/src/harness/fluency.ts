// Fluency: how readily the plain base model would have written a text, as its perplexity of the
// text on its own (each text after a lone end-of-text token, the way a document starts). A Voice
// whose rewrites the base finds much less likely than its own rewrites has traded readable
// English for style; the harness holds the ratio to a target.
//
// Shapes: texts: string[n] → perplexity per text: number[n] (exp of its mean loss per token).

import type { LlamaRuntime } from '../runtime/llama-runtime.js';
import { heldOutLoss } from '../trainer/held-out-loss.js';

export async function basePerplexities(req: {
  runtime: Pick<LlamaRuntime, 'tokenize' | 'eosToken'>;
  modelPath: string;
  texts: readonly string[];
  workDir: string;
  threads?: number | undefined;
}): Promise<number[]> {
  const eos = req.runtime.eosToken;
  // A rewrite is a paragraph or two, far under this; longer ones are cut (the trainer keeps the start).
  const seqLen = 512;
  const examples = req.texts.map((text) => ({ input: [eos], target: req.runtime.tokenize(text).slice(0, seqLen - 1) }));
  const { exampleLosses } = await heldOutLoss({
    modelPath: req.modelPath,
    examples,
    workDir: req.workDir,
    seqLen,
    padId: eos,
    ...(req.threads ? { threads: req.threads } : {}),
  });
  return exampleLosses.map((loss) => Math.exp(Math.min(loss, 50)));
}
