// Training pairs by inverse paraphrase: the plain base model turns each passage of the
// person's writing into generic prose; the Voice then learns generic -> original.
// The paraphrases come from llama.cpp (the engine), or, where the trainer has a GPU or a CPU
// with fast bfloat16 products, from the trainer's own model there: the same prompt tokens,
// budget and greedy decoding (in float32 the same tokens, trainer/generate.test.ts), all
// passages in one batch on a GPU, TRAINER_CPU_PARAPHRASES at a time on a CPU.

import { contentRecall } from '../eval/content-recall.js';
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { generateOnTrainer } from '../trainer/generate.js';
import type { TrainerProcess, TrainerPython } from '../trainer/python.js';
import { type ParaphrasePrompt, paraphraseChat, paraphraseRequest, paraphraseSettings } from './prompts.js';

export interface RewritePair {
  generic: string;
  original: string;
}

/**
 * Paraphrases the trainer takes at once on a CPU, shared out over its processes (two of one
 * thread each in bfloat16 on two cores: 16 rows each). 32 rows on two threads already kept two
 * cores busy (4.9 ms a row and token at 135M's shape in bfloat16; 128 rows at once, 4.7 ms), and
 * a wider batch holds more memory: its cache, and the prompts' attention scores while they are read.
 */
export const TRAINER_CPU_PARAPHRASES = 32;

/**
 * Where a Voice's pairs are written by default: on the trainer where its products are fast, on
 * CUDA or in bfloat16 on a CPU that runs them fast (a preset whose mixed precision is not off;
 * decision 25); else on llama.cpp. The house model's float32 preset so keeps llama.cpp, whose
 * tokens its harness was measured on.
 */
export const paraphraserFor = (
  python: Pick<TrainerPython, 'cuda' | 'cpuBf16'>,
  mixedPrecision: 'auto' | boolean,
): 'engine' | 'trainer' => (python.cuda || (python.cpuBf16 && mixedPrecision !== false) ? 'trainer' : 'engine');

export interface PairOptions {
  signal?: AbortSignal;
  /**
   * Passages paraphrased of all of them. On the trainer, which writes them in batches, a share of
   * the passages as its decoding advances (done need not be whole): answers come a batch at once.
   */
  onProgress?: (done: number, total: number) => void;
  /**
   * Paraphrase on the trainer (PyTorch) with this GGUF base model instead of on the engine: on
   * its device (CUDA where present), on a CPU TRAINER_CPU_PARAPHRASES at a time, with the
   * products' precision as training's (mixedPrecision; float32 on a CPU when absent).
   */
  trainer?: TrainerParaphraser;
  /** The house model's paraphrase prompt, or a real instruct model's (the default). */
  prompt?: ParaphrasePrompt;
}

export interface TrainerParaphraser {
  modelPath: string;
  device?: 'cuda' | 'cpu';
  mixedPrecision?: 'auto' | boolean;
  threads?: number;
  /** The serving trainer to decode on, which keeps the model loaded for the training after. */
  process?: TrainerProcess;
}

/** generateOnTrainer's model and decoding settings for paraphrasing as `trainer` says. */
export const trainerDecoding = (trainer: TrainerParaphraser) => ({
  modelPath: trainer.modelPath,
  ...(trainer.device ? { device: trainer.device } : {}),
  ...(trainer.device === 'cpu' ? { batchSize: TRAINER_CPU_PARAPHRASES } : {}),
  ...(trainer.mixedPrecision !== undefined ? { mixedPrecision: trainer.mixedPrecision } : {}),
  ...(trainer.threads ? { threads: trainer.threads } : {}),
  ...(trainer.process ? { trainer: trainer.process } : {}),
});

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
    messages: paraphraseChat(original, options.prompt),
    options: paraphraseSettings(runtime.tokenize(original).length),
  }));
  let generics: string[];
  if (options.trainer) {
    const answers = await generateOnTrainer({
      ...trainerDecoding(options.trainer),
      prompts: chats.map((c) => runtime.chatPromptTokens(c.messages)),
      maxNew: chats.map((c) => c.options.maxTokens),
      stopIds: runtime.endTokens,
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
  return passages.map((original, i) => ({ generic: withoutRequest(generics[i] ?? '', options.prompt), original }));
}

/**
 * The paraphrase without the request's own words: a small instruct model sometimes repeats the
 * instruction after its answer (SmolLM2-135M did in 4 of 32 passages), which would teach the
 * Voice that such a line belongs to plain text.
 */
export function withoutRequest(answer: string, prompt: ParaphrasePrompt = 'instruct'): string {
  const request = paraphraseRequest('', prompt).trim();
  // A line whose every sentence is one of the request's (the model may skip one of them).
  const isRequest = (line: string) => {
    const sentences = line.trim().split(/(?<=[.:!?])\s+/);
    return line.trim().length >= 12 && sentences.every((sentence) => request.includes(sentence));
  };
  return answer
    .split('\n')
    .filter((line) => !isRequest(line))
    .join('\n')
    .trim();
}

/** A pair whose plain version keeps less of the passage's content words than this teaches invention. */
export const MIN_PAIR_RECALL = 0.4;

/**
 * The pairs to train on: those whose plain version keeps the passage's content. A Voice learns
 * plain → original; where the paraphrase dropped or changed what the passage says, it learns to
 * make things up, and then drifts from what people give it to convert. On SmolLM2-135M half the
 * paraphrases of whole passages kept under 0.3 of their content words (decision 32). At least
 * half the pairs stay, the most faithful first, so that a small upload still trains.
 */
export function faithfulPairs(pairs: readonly RewritePair[]): RewritePair[] {
  const scored = pairs.map((pair) => ({ pair, recall: contentRecall(pair.original, pair.generic) }));
  const kept = scored.filter((s) => s.recall >= MIN_PAIR_RECALL);
  if (kept.length * 2 >= pairs.length) return kept.map((s) => s.pair);
  const best = [...scored].sort((a, b) => b.recall - a.recall).slice(0, Math.ceil(pairs.length / 2));
  return scored.filter((s) => best.includes(s)).map((s) => s.pair);
}
