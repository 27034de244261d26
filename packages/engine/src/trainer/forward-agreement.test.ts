// Proof: the trainer's PyTorch forward pass and llama.cpp give the same next-token logits for
// the same GGUF file and tokens. Tolerance, relative to the largest logit L (about 4 here):
// max |difference| <= 2e-3 * L for F32 weights (both compute in float32; llama.cpp's
// vectorised exp and summation order differ), 2e-2 * L for F16 and 5e-2 * L for Q8_0, where
// llama.cpp also rounds the activations it multiplies. A wrong RoPE layout differs by > 1 * L.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GgmlType } from '../gguf/types.js';
import { LlamaRuntime } from '../runtime/llama-runtime.js';
import { SAMPLE_TEXT, smallHparams, tempDir, writeRandomModel } from '../test/fixtures.js';
import { compareLogits, trainerLogits } from '../test/logits.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function compare(modelPath: string) {
  const runtime = await LlamaRuntime.load({ modelPath });
  try {
    const tokens = runtime.tokenize(SAMPLE_TEXT.slice(0, 300));
    expect(tokens.length).toBeGreaterThan(20);
    const fromLlama = await runtime.logits(tokens);
    const fromTorch = await trainerLogits(dir, 'forward', { model: modelPath }, tokens, runtime.hparams.nVocab);
    return compareLogits(fromTorch, fromLlama);
  } finally {
    await runtime.dispose();
  }
}

describe('trainer forward pass vs llama.cpp', () => {
  it('agrees on a llama model with grouped-query attention (F32)', async () => {
    const { maxDiff, maxAbs } = await compare(writeRandomModel(dir, smallHparams()));
    expect(maxAbs).toBeGreaterThan(1); // the logits are far from trivial
    expect(maxDiff).toBeLessThan(2e-3 * maxAbs);
  });

  it('agrees on a qwen2 model with q/k/v biases and tied output (F32)', async () => {
    const h = smallHparams({ arch: 'qwen2', tiedOutput: true, nHeadKv: 4 });
    const { maxDiff, maxAbs } = await compare(writeRandomModel(dir, h));
    expect(maxDiff).toBeLessThan(2e-3 * maxAbs);
  });

  it('agrees on F16 and Q8_0 weights within the rounding llama.cpp adds', async () => {
    const f16 = await compare(writeRandomModel(dir, smallHparams(), { matrixType: GgmlType.F16, name: 'f16' }));
    expect(f16.maxDiff).toBeLessThan(2e-2 * f16.maxAbs);
    const q8 = await compare(writeRandomModel(dir, smallHparams(), { matrixType: GgmlType.Q8_0, name: 'q8' }));
    expect(q8.maxDiff).toBeLessThan(5e-2 * q8.maxAbs);
  });
});
