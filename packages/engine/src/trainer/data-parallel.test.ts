// Proof: a LoRA step shared out over two processes on the CPU (data_parallel.py) trains the
// weights one process trains, the same on every run, and leaves no process behind, whether the
// run ends, is cancelled or its trainer is killed.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, randomModelWithSampleTokens, tempDir } from '../test/fixtures.js';
import { heldOutLoss } from './held-out-loss.js';
import { runTrainer, type TrainerEvent } from './python.js';
import { TRAINING_PRESETS, type TrainingExample, toJsonl, trainerSettings } from './train.js';

let dir: string;
let basePath: string;
let examples: TrainingExample[];

beforeAll(async () => {
  dir = tempDir();
  let tokens: number[];
  ({ basePath, tokens } = await randomModelWithSampleTokens(dir));
  examples = [];
  for (let i = 0; i + 30 <= tokens.length && examples.length < 16; i += 7)
    examples.push({ input: tokens.slice(i, i + 6), target: tokens.slice(i + 6, i + 30) });
  writeFileSync(path.join(dir, 'train.jsonl'), toJsonl(examples));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run of steps of 4 examples, each example its own micro-batch, on two threads. */
async function run(
  name: string,
  processes: number | 'auto',
  more: { steps?: number; availableMib?: number; signal?: AbortSignal; onEvent?: (e: TrainerEvent) => void } = {},
) {
  const events: TrainerEvent[] = [];
  const done = await runTrainer(
    'train',
    {
      mode: 'lora',
      model: basePath,
      train: path.join(dir, 'train.jsonl'),
      out_dir: path.join(dir, name),
      ...trainerSettings({ ...TRAINING_PRESETS.tiny, batchSize: 4, seqLen: 64, microBatchTokens: 30 }),
      max_steps: more.steps ?? 6,
      processes,
      available_mib: more.availableMib ?? null,
    },
    {
      threads: 2,
      onEvent: (e) => {
        events.push(e);
        more.onEvent?.(e);
      },
      ...(more.signal ? { signal: more.signal } : {}),
    },
  );
  const start = events.find((e) => e.event === 'start') as TrainerEvent;
  const shared = events.find((e) => e.event === 'processes');
  return { done, start, shared, helpers: (shared?.helper_pids ?? []) as number[] };
}

const heldOut = (adapterPath: string, name: string) =>
  heldOutLoss({
    modelPath: basePath,
    adapterPath,
    examples,
    seqLen: 64,
    padId: 0,
    threads: 1,
    workDir: path.join(dir, name),
  });

describe('a step shared out over two processes', () => {
  it('trains the weights one process trains, and the same on every run', async () => {
    const one = await run('one', 1);
    const two = await run('two', 2);
    const again = await run('again', 2);
    expect(one.start.processes).toBe(1);
    expect(two.start.processes).toBe(2);
    // From the second step on: the first, alone, shows what memory a helper needs.
    expect(two.shared).toMatchObject({ processes: 2 });
    expect(two.helpers).toHaveLength(1);
    // Only the order of the gradient's sums differs: float32's last bits.
    const [a, b] = [Number(one.done.final_loss), Number(two.done.final_loss)];
    expect(Math.abs(a - b)).toBeLessThan(1e-5 * a);
    expect(again.done.final_loss).toBe(two.done.final_loss);
    const moved = (await heldOut(String(one.done.adapter), 'h1')).loss;
    expect(Math.abs((await heldOut(String(two.done.adapter), 'h2')).loss - moved)).toBeLessThan(1e-4);
    // The helper is gone once the run is done.
    expect(two.helpers.some(alive)).toBe(false);
  });

  it('is one process in float32 unless asked for (measured to pay with bfloat16 products)', async () => {
    expect((await run('auto', 'auto')).start.processes).toBe(1);
  });

  it('stays one process where the memory for a helper is not free, and says so', async () => {
    const short = await run('short', 2, { availableMib: 100 });
    expect(short.shared).toMatchObject({
      processes: 1,
      reason: expect.stringMatching(/MiB more needed, 100 MiB available/),
    });
    expect(short.helpers).toEqual([]);
    expect(short.done.steps).toBe(6);
  });

  it('stops its helper when the run is cancelled, or its trainer killed', async () => {
    for (const how of ['cancelled', 'killed'] as const) {
      const controller = new AbortController();
      let helpers: number[] = [];
      let trainer = 0;
      const ended = run(how, 2, {
        steps: 400,
        signal: controller.signal,
        onEvent: (e) => {
          if (e.event === 'start') trainer = Number(e.pid);
          if (e.event === 'processes') helpers = e.helper_pids as number[];
          if (e.event !== 'progress' || e.step !== 3) return;
          if (how === 'cancelled') controller.abort();
          else process.kill(trainer, 'SIGKILL');
        },
      });
      await expect(ended).rejects.toThrow(how === 'cancelled' ? /cancelled/ : /SIGKILL/);
      expect(helpers).toHaveLength(1);
      await expect.poll(() => helpers.some(alive), { timeout: 10_000 }).toBe(false);
    }
  });
});
