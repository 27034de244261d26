// Small models for tests: a BPE vocabulary trained on a shipped English paragraph, and random
// llama or qwen2 weights of a given shape, written as GGUF into a temporary folder.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeGgufAdapter, writePeftAdapter } from '../adapters/export.js';
import type { NamedTensor } from '../adapters/safetensors.js';
import { randomWeights, writeLlamaGguf } from '../gguf/llama-model.js';
import type { ModelHparams } from '../gguf/model-spec.js';
import { GgmlType } from '../gguf/types.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { seededRandom } from '../seeded-random.js';
import { type BpeVocabulary, trainBpe } from '../tokenizer/bpe-trainer.js';
import { HOUSE_SPECIAL_TOKENS, tokenizerKv } from '../tokenizer/gguf-tokenizer.js';
import { TRAINING_PRESETS, train } from '../trainer/train.js';

export const SAMPLE_TEXT = `It was a bright cold day in April, and the clocks were striking thirteen. The hallway smelt of
boiled cabbage and old rag mats. At one end of it a coloured poster, too large for indoor display,
had been tacked to the wall. It depicted simply an enormous face, more than a metre wide: the face
of a man of about forty-five, with a heavy black moustache and ruggedly handsome features. Outside,
even through the shut window-pane, the world looked cold. Down in the street little eddies of wind
were whirling dust and torn paper into spirals, and though the sun was shining and the sky a harsh
blue, there seemed to be no colour in anything, except the posters that were plastered everywhere.`;

let vocab: BpeVocabulary | undefined;
export const testVocab = (): BpeVocabulary => {
  vocab ??= trainBpe(SAMPLE_TEXT, 400, HOUSE_SPECIAL_TOKENS);
  return vocab;
};

export const tempDir = (prefix = 'ownvoice-engine-') => mkdtempSync(path.join(tmpdir(), prefix));

/** Whether a process with this id still exists (signal 0 only checks). */
export const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

export function smallHparams(overrides: Partial<ModelHparams> = {}): ModelHparams {
  return {
    arch: 'llama',
    nLayer: 2,
    nEmbd: 64,
    nFf: 160,
    nHead: 4,
    nHeadKv: 2,
    headDim: 16,
    nVocab: testVocab().tokens.length,
    nCtx: 256,
    rmsEps: 1e-5,
    ropeBase: 10000,
    tiedOutput: false,
    ...overrides,
  };
}

/** Writes a random model and returns its path. */
export function writeRandomModel(
  dir: string,
  h: ModelHparams,
  options: { seed?: number; matrixType?: GgmlType; name?: string; scale?: number } = {},
): string {
  const file = path.join(dir, `${options.name ?? `${h.arch}-${options.seed ?? 1}`}.gguf`);
  // Weights large enough that attention is sharp: a wrong RoPE or mask then shows in the logits.
  writeLlamaGguf(file, h, randomWeights(h, options.seed ?? 1, options.scale ?? 0.25), tokenizerKv(testVocab()), {
    matrixType: options.matrixType ?? GgmlType.F32,
  });
  return file;
}

/** A random small model written into `dir`, and the sample text in its tokens: what training tests train on. */
export async function randomModelWithSampleTokens(dir: string): Promise<{ basePath: string; tokens: number[] }> {
  const basePath = writeRandomModel(dir, smallHparams());
  const runtime = await LlamaRuntime.load({ modelPath: basePath });
  try {
    return { basePath, tokens: runtime.tokenize(SAMPLE_TEXT) };
  } finally {
    await runtime.dispose();
  }
}

/**
 * Trains a small LoRA adapter on the sample text with a hot learning rate, so it clearly
 * changes the model, and returns the trainer's adapter.safetensors path.
 */
export async function trainQuickAdapter(dir: string, basePath: string, tokens: number[], seed = 0): Promise<string> {
  const examples = [];
  for (let i = 0; i + 40 <= tokens.length; i += 8) {
    examples.push({ input: tokens.slice(i, i + 8), target: tokens.slice(i + 8, i + 40) });
  }
  const result = await train({
    mode: 'lora',
    modelPath: basePath,
    workDir: path.join(dir, `train-${seed}`),
    train: examples,
    preset: { ...TRAINING_PRESETS.tiny, rank: 4, alpha: 8, lr: 2e-2, batchSize: 4 },
    padId: 0,
    seed,
    maxSteps: 12,
    threads: 2,
  });
  if (!result.adapterPath) throw new Error('no adapter trained');
  return result.adapterPath;
}

/**
 * A Voice's adapter folder for a model of shape `h`, as training leaves it: `voice.gguf` and the
 * PEFT export in `peft/`, with small seeded weights on every layer's attn_q and attn_v.
 */
export function writeRandomAdapterFolder(
  dir: string,
  h: ModelHparams,
  { rank = 2, alpha = 4 }: { rank?: number; alpha?: number } = {},
): { ggufPath: string; peftDir: string } {
  const tensors = new Map<string, NamedTensor>();
  const next = seededRandom(7);
  const random = (n: number) => Float32Array.from({ length: n }, () => (next() - 0.5) / 50);
  for (let layer = 0; layer < h.nLayer; layer++) {
    for (const [target, out] of [
      ['attn_q', h.nHead * h.headDim],
      ['attn_v', h.nHeadKv * h.headDim],
    ] as const) {
      tensors.set(`blk.${layer}.${target}.weight.lora_a`, { shape: [rank, h.nEmbd], data: random(rank * h.nEmbd) });
      tensors.set(`blk.${layer}.${target}.weight.lora_b`, { shape: [out, rank], data: random(out * rank) });
    }
  }
  const adapter = { arch: h.arch, rank, alpha, tensors };
  const ggufPath = path.join(dir, 'voice.gguf');
  const peftDir = path.join(dir, 'peft');
  writeGgufAdapter(ggufPath, adapter);
  writePeftAdapter(peftDir, adapter, h, 'ownvoice/test-base');
  return { ggufPath, peftDir };
}
