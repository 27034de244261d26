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
  return passages.map((original, i) => ({ generic: cleanParaphrase(generics[i] ?? '', options.prompt), original }));
}

/**
 * The paraphrase as a Voice should learn from it: without the request's own words, and cut where
 * it starts to loop (paraphraseLoopCut).
 */
export const cleanParaphrase = (answer: string, prompt: ParaphrasePrompt = 'instruct'): string =>
  withoutLoop(withoutRequest(answer, prompt));

/**
 * The paraphrase without the request's own words: a small instruct model sometimes repeats the
 * instruction after its answer (SmolLM2-135M did in 4 of 32 passages), or a shortened form of it
 * ("Rewrite the text in plain, everyday English."), which would teach the Voice that such a line
 * belongs to plain text.
 */
export function withoutRequest(answer: string, prompt: ParaphrasePrompt = 'instruct'): string {
  const requestWords = new Set(words(paraphraseRequest('', prompt)));
  // A line whose every sentence is made of the request's words (the model may skip or shorten one).
  const isRequest = (line: string) => {
    const sentences = line.trim().split(/(?<=[.:!?])\s+/);
    return line.trim().length >= 12 && sentences.every((sentence) => words(sentence).every((w) => requestWords.has(w)));
  };
  return answer
    .split('\n')
    .filter((line) => !isRequest(line))
    .join('\n')
    .trim();
}

const words = (text: string): string[] => text.toLowerCase().match(/[\p{L}\p{N}']+/gu) ?? [];

/**
 * The paraphrase up to the first sentence it has already written. Greedy decoding on a small
 * model loops ("The righteous man is happy, but the wicked is evil." twenty times): of the real
 * model's paraphrases of the harness writers' passages, 29 of 176 were repetitive, and a Voice
 * trained on them learns that plain text ends in a loop. Everything after the first repeat is
 * the loop, so it goes; what stays is what the model said once.
 */
export function withoutLoop(text: string): string {
  const seen = new Set<string>();
  // Sentences with what follows them (spaces, line breaks), so the text up to a cut stays as written.
  const sentences = text.match(/[^.!?\n]+(?:[.!?]+|$)[\s]*|\n+/g) ?? [];
  let kept = '';
  for (const sentence of sentences) {
    const key = words(sentence).join(' ');
    if (key.split(' ').length >= 3 && seen.has(key)) break;
    if (key) seen.add(key);
    kept += sentence;
  }
  return kept.trim();
}

/** A pair whose plain version keeps less of the passage's content words than this teaches invention. */
export const MIN_PAIR_RECALL = 0.4;

/**
 * The pairs to train on: those whose plain version keeps the passage's content. A Voice learns
 * plain → original; where the paraphrase dropped or changed what the passage says, it learns to
 * make things up, and then drifts from what people give it to convert. On SmolLM2-135M half the
 * paraphrases of whole passages kept under 0.3 of their content words (decision 32). At least
 * half the pairs stay, the most faithful first, so that a small upload still trains.
 *
 * Pairs whose plain version copies much of the passage's wording stay too: dropping those with
 * more than half their word 4-grams copied (a median 0.57 of the Jargon File's) moved no Voice's
 * style in the harness (decision 43.6).
 */
export function faithfulPairs(pairs: readonly RewritePair[]): RewritePair[] {
  const scored = pairs.map((pair) => ({ pair, recall: contentRecall(pair.original, pair.generic) }));
  const kept = scored.filter((s) => s.recall >= MIN_PAIR_RECALL);
  if (kept.length * 2 >= pairs.length) return kept.map((s) => s.pair);
  const best = [...scored].sort((a, b) => b.recall - a.recall).slice(0, Math.ceil(pairs.length / 2));
  return scored.filter((s) => best.includes(s)).map((s) => s.pair);
}
