// Training pairs by inverse paraphrase: the plain base model turns each passage of the
// person's writing into generic prose; the Voice then learns generic -> original.
// The paraphrases come from llama.cpp (the engine), or, where the trainer has a GPU or a CPU
// with fast bfloat16 products, from the trainer's own model there: the same prompt tokens,
// budget and greedy decoding (in float32 the same tokens, trainer/generate.test.ts), all
// passages in one batch on a GPU, TRAINER_CPU_PARAPHRASES at a time on a CPU.
import type { VoiceEngine } from '../runtime/voice-engine.js';
import { generateOnTrainer } from '../trainer/generate.js';
import type { TrainerProcess, TrainerPython } from '../trainer/python.js';
import { paraphraseChat, paraphraseSettings } from './prompts.js';

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
    messages: paraphraseChat(original),
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
  return passages.map((original, i) => ({ generic: (generics[i] ?? '').trim(), original }));
}
