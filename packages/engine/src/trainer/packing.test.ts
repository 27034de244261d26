// Proof: the trainer packs a batch's examples end to end in one row (attention kept inside each
// example, logits only where a target is predicted, padding at the end only where asked for) and
// still scores every example exactly as it would on its own through the model's plain forward
// pass, padded or not; and a batch summed a micro-batch at a time trains the same weights as the
// whole batch at once (and bfloat16 matrix products nearly the same).
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random.js';
import { randomModelWithSampleTokens, tempDir } from '../test/fixtures.js';
import { heldOutLoss } from './held-out-loss.js';
import { runTrainer, type TrainerEvent } from './python.js';
import { TRAINING_PRESETS, type TrainingExample, type TrainingPreset, toJsonl, train } from './train.js';

let dir: string;
let basePath: string;
let examples: TrainingExample[];

beforeAll(async () => {
  dir = tempDir();
  let tokens: number[];
  ({ basePath, tokens } = await randomModelWithSampleTokens(dir));
  // Examples of uneven lengths, some with a prompt and some all target.
  const rand = seededRandom(5);
  examples = [];
  for (let i = 0; i < 12; i++) {
    const start = Math.floor(rand() * (tokens.length - 60));
    const input = i % 3 === 0 ? 0 : 3 + Math.floor(rand() * 20);
    const target = 5 + Math.floor(rand() * 35);
    examples.push({
      input: tokens.slice(start, start + input),
      target: tokens.slice(start + input, start + input + target),
    });
  }
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function exampleLosses(
  packed: boolean,
  rowMultiple?: number,
): Promise<{ loss: number; each: number[]; rowMultiple: number }> {
  const file = path.join(dir, 'examples.jsonl');
  writeFileSync(file, toJsonl(examples));
  const done = await runTrainer(
    'eval',
    { model: basePath, examples: file, seq_len: 64, batch_size: 5, packed, row_multiple: rowMultiple ?? null },
    { threads: 1 },
  );
  return {
    loss: Number(done.loss),
    each: (done.example_losses as number[]).map(Number),
    rowMultiple: Number(done.row_multiple),
  };
}

const close = (a: number, b: number) => Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b));

describe('packed batches', () => {
  it('score every example as it scores on its own', async () => {
    const packed = await exampleLosses(true);
    const alone = await exampleLosses(false);
    expect(packed.each).toHaveLength(examples.length);
    expect(new Set(alone.each.map((l) => l.toFixed(3))).size).toBeGreaterThan(5); // distinct examples
    for (const [i, l] of packed.each.entries()) {
      expect(close(l, alone.each[i] as number), `example ${i}: ${l} vs ${alone.each[i]}`).toBe(true);
    }
    expect(close(packed.loss, alone.loss)).toBe(true);
  });

  it('score every example the same with rows padded to a multiple', async () => {
    // As the CPU's bfloat16 products take them (precision.py, CPU_BF16_ROW_MULTIPLE): pad tokens after
    // the last example's, never attended to by a real position nor scored. Here in float32, where
    // rows are not padded by default, so that only the padding can make a difference.
    const plain = await exampleLosses(true);
    const padded = await exampleLosses(true, 64);
    expect(plain.rowMultiple).toBe(1);
    expect(padded.rowMultiple).toBe(64);
    for (const [i, l] of padded.each.entries()) {
      expect(close(l, plain.each[i] as number), `example ${i}: ${l} vs ${plain.each[i]}`).toBe(true);
    }
  });

  const run = (name: string, preset: Partial<TrainingPreset> = {}, more: Partial<Parameters<typeof train>[0]> = {}) =>
    train({
      mode: 'lora',
      modelPath: basePath,
      workDir: path.join(dir, name),
      train: examples,
      preset: { ...TRAINING_PRESETS.tiny, batchSize: 6, seqLen: 64, ...preset },
      padId: 0,
      maxSteps: 4,
      threads: 1,
      ...more,
    });
  /** The held-out loss in float32 with the adapter, or of the base model where there is none. */
  const heldOut = (adapterPath: string | undefined, name: string) =>
    heldOutLoss({
      modelPath: basePath,
      ...(adapterPath ? { adapterPath } : {}),
      examples,
      seqLen: 64,
      padId: 0,
      threads: 1,
      workDir: path.join(dir, name),
    });

  it('train the same weights whole or a micro-batch at a time', async () => {
    const whole = await run('whole');
    const parts = await run('parts', { microBatchTokens: 40 });
    expect(close(parts.finalLoss, whole.finalLoss)).toBe(true);
    // 'auto' sizes passes by the device: here the CPU's 1024 tokens, more than this whole batch.
    const auto = await run('auto', { microBatchTokens: 'auto' });
    expect(auto.finalLoss).toBe(whole.finalLoss);
    const a = await heldOut(whole.adapterPath, 'a');
    const b = await heldOut(parts.adapterPath, 'b');
    expect(Math.abs(a.loss - b.loss)).toBeLessThan(1e-4);
  });

  it('train nearly the same weights with bfloat16 matrix products', async () => {
    // The same run as 'whole' above, in its own folder.
    const starts: TrainerEvent[] = [];
    const onEvent = (e: TrainerEvent) => e.event === 'start' && starts.push(e);
    const full = await heldOut((await run('float32', {}, { onEvent })).adapterPath, 'c');
    const mixed = await heldOut((await run('bfloat16', { mixedPrecision: true }, { onEvent })).adapterPath, 'd');
    const base = await heldOut(undefined, 'e');
    // bfloat16 on the CPU pads its rows to a multiple of 64 tokens; float32 runs them as they are.
    expect(starts.map((e) => e.row_multiple)).toEqual([1, 64]);
    // Training moved the loss; bfloat16 rounding moves it by a small fraction of that.
    expect(base.loss - full.loss).toBeGreaterThan(0.05);
    expect(Math.abs(mixed.loss - full.loss)).toBeLessThan(0.1 * (base.loss - full.loss));
  });

  it('measure the held-out loss in bfloat16 when training in it, close to float32', async () => {
    const trained = await run('bfloat16-eval', { mixedPrecision: true }, { eval: examples, measureBaseEvalLoss: true });
    const voice = await heldOut(trained.adapterPath, 'f');
    const base = await heldOut(undefined, 'g');
    // Each within a small fraction of what training moved it.
    const moved = base.loss - voice.loss;
    expect(moved).toBeGreaterThan(0.05);
    expect(Math.abs((trained.baseEvalLoss as number) - base.loss)).toBeLessThan(0.05 * moved);
    expect(Math.abs((trained.evalLoss as number) - voice.loss)).toBeLessThan(0.05 * moved);
  });
});
