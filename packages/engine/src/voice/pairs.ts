// Training pairs by inverse paraphrase: the plain base model turns each passage of the
// person's writing into generic prose; the Voice then learns generic -> original.
// The paraphrases come from llama.cpp (the engine), or, where the trainer has a GPU, from the
// trainer's own model there: the same prompt tokens, budget and greedy decoding, so the same
// tokens (trainer/generate.test.ts), all passages in one batch.
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { generateOnTrainer } from '../trainer/generate.js';
import { paraphraseChat, paraphraseSettings } from './prompts.js';

export interface RewritePair {
  generic: string;
  original: string;
}

export interface PairOptions {
  signal?: AbortSignal;
  /**
   * Passages paraphrased of all of them. On the trainer, which writes them in batches, a share of
   * the passages as its decoding advances (done need not be whole): answers come a batch at once.
   */
  onProgress?: (done: number, total: number) => void;
  /** Paraphrase on the trainer (PyTorch) with this GGUF base model instead of on the engine. */
  trainer?: { modelPath: string; threads?: number };
}

export async function buildPairs(
  engine: VoiceEngine,
  passages: readonly string[],
  options: PairOptions = {},
): Promise<RewritePair[]> {
  let done = 0;
  const total = passages.length;
  const onAnswer = () => options.onProgress?.(++done, total);
  const signal = options.signal ? { signal: options.signal } : {};
  const runtime = engine.runtime;
  const chats = passages.map((original) => ({
    messages: paraphraseChat(original),
    options: paraphraseSettings(runtime.tokenize(original).length),
  }));
  let generics: string[];
  if (options.trainer) {
    const answers = await generateOnTrainer({
      modelPath: options.trainer.modelPath,
      prompts: chats.map((c) => runtime.chatPromptTokens(c.messages)),
      maxNew: chats.map((c) => c.options.maxTokens),
      stopIds: runtime.endTokens,
      ...(options.trainer.threads ? { threads: options.trainer.threads } : {}),
      ...signal,
      onDecoding: (tokens, budget) => options.onProgress?.((total * tokens) / budget, total),
    });
    generics = answers.map((tokens) => runtime.detokenize(tokens));
  } else {
    // One batch on a context of its own: the engine decodes many paraphrases in each pass.
    generics = await engine.chatBatch(chats, { ...signal, onAnswer });
  }
  // A model that answers nothing still gives a usable pair: the Voice learns to write the
  // passage from an empty prompt, which teaches style, not content.
  return passages.map((original, i) => ({ generic: (generics[i] ?? '').trim(), original }));
}
