// The bench's plain PyTorch loop (plain_lora.py) is an independent model: it is only a fair
// yardstick if it computes what the trainer's model computes. Both run float32 on the same GGUF
// weights, so their logits agree to float rounding: max |difference| <= 1e-4 * L, L the largest
// logit (about 4 here). A RoPE on the wrong pairs, a wrong GQA grouping or a LoRA scale off by
// a factor shows up at 1e-1 * L or more.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random.js';
import { smallHparams, tempDir, trainQuickAdapter, writeRandomModel } from '../test/fixtures.js';
import { compareLogits, trainerLogits } from '../test/logits.js';
import { TrainerError } from './python.js';

let dir: string;
beforeAll(() => {
  dir = tempDir();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const TOLERANCE = 1e-4;

function randomTokens(n: number, vocab: number, seed: number): number[] {
  const rand = seededRandom(seed);
  return Array.from({ length: n }, () => Math.floor(rand() * vocab));
}

async function compare(request: Record<string, unknown>, tokens: number[], vocab: number) {
  const trainer = await trainerLogits(dir, 'forward', request, tokens, vocab);
  return compareLogits(await trainerLogits(dir, 'plain-logits', request, tokens, vocab), trainer);
}

describe('the plain loop model vs the trainer model', () => {
  it('gives the same logits on a llama model with grouped-query attention and its own output matrix', async () => {
    const h = smallHparams();
    const tokens = randomTokens(64, h.nVocab, 1);
    const { maxDiff, maxAbs } = await compare(
      { model: writeRandomModel(dir, h, { name: 'untied' }) },
      tokens,
      h.nVocab,
    );
    expect(maxAbs).toBeGreaterThan(1); // far from trivial logits
    expect(maxDiff).toBeLessThan(TOLERANCE * maxAbs);
  });

  it('gives the same logits with tied embeddings and one kv head per two query heads', async () => {
    const h = smallHparams({ tiedOutput: true, nHead: 8, nHeadKv: 4, headDim: 8 });
    const tokens = randomTokens(48, h.nVocab, 2);
    const { maxDiff, maxAbs } = await compare({ model: writeRandomModel(dir, h, { name: 'tied' }) }, tokens, h.nVocab);
    expect(maxDiff).toBeLessThan(TOLERANCE * maxAbs);
  });

  it('applies a trained LoRA adapter as the trainer does', async () => {
    const h = smallHparams();
    const model = writeRandomModel(dir, h, { name: 'lora-base', seed: 3 });
    const adapter = await trainQuickAdapter(dir, model, randomTokens(120, h.nVocab, 3));
    const tokens = randomTokens(40, h.nVocab, 4);
    const withAdapter = await compare({ model, adapter }, tokens, h.nVocab);
    expect(withAdapter.maxDiff).toBeLessThan(TOLERANCE * withAdapter.maxAbs);
    // The adapter does change the logits, so the agreement above covers the LoRA path.
    const base = await trainerLogits(dir, 'plain-logits', { model }, tokens, h.nVocab);
    const adapted = await trainerLogits(dir, 'plain-logits', { model, adapter }, tokens, h.nVocab);
    expect(compareLogits(adapted, base).maxDiff).toBeGreaterThan(1e-2 * withAdapter.maxAbs);
  });

  it('refuses an architecture it does not implement', async () => {
    const h = smallHparams({ arch: 'qwen2', tiedOutput: true, nHeadKv: 4 });
    await expect(
      trainerLogits(dir, 'plain-logits', { model: writeRandomModel(dir, h, { name: 'qwen2' }) }, [1, 2, 3], h.nVocab),
    ).rejects.toThrow(TrainerError);
  });
});
