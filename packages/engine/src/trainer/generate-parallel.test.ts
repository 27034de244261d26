// Proof: greedy decoding shared out over two processes on the CPU (generate_parallel.py) gives
// every prompt the answer one process gives, reports each answer once and its progress over both
// processes, falls back to one process where the memory for a helper is not free, and leaves no
// helper behind, whether the run ends or is cancelled. And prompts read in blocks of columns
// (decode.py's prefill) give the answers of prompts read in one pass, and a KV cache grown as
// the answers grow the answers of one made whole at the start.
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alive, randomModelWithSampleTokens, tempDir } from '../test/fixtures.js';
import { runTrainer, type TrainerEvent } from './python.js';

let dir: string;
let basePath: string;
let prompts: number[][];
let budgets: number[];
let sample: number[];

beforeAll(async () => {
  dir = tempDir();
  let tokens: number[];
  ({ basePath, tokens } = await randomModelWithSampleTokens(dir));
  sample = tokens;
  // Prompts of six lengths and budgets, so each process's batch pads and its rows end apart.
  prompts = [5, 23, 11, 40, 17, 30].map((n, i) => tokens.slice(i * 3, i * 3 + n));
  budgets = [9, 14, 6, 20, 12, 16];
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A generate run in float32 (so every batching gives the same tokens) on two threads. */
async function generate(
  processes: number | 'auto',
  more: { availableMib?: number; prompts?: number[][]; prefillColumns?: number; cacheColumns?: number } = {},
) {
  const events: TrainerEvent[] = [];
  const done = await runTrainer(
    'generate',
    {
      model: basePath,
      prompts: more.prompts ?? prompts,
      max_new: (more.prompts ?? prompts).map((_, i) => budgets[i % budgets.length]),
      stop_ids: [],
      device: 'cpu',
      mixed_precision: false,
      processes,
      available_mib: more.availableMib ?? null,
      prefill_columns: more.prefillColumns ?? null,
      cache_columns: more.cacheColumns ?? null,
    },
    { threads: 2, onEvent: (e) => events.push(e) },
  );
  return { outputs: done.outputs as number[][], events, shared: events.find((e) => e.event === 'processes') };
}

/** Prompt indices by length, dealt in turn to two processes (generate_parallel.shares). */
const dealt = () => {
  const order = prompts
    .map((_, i) => i)
    .sort((a, b) => (prompts[a] as number[]).length - (prompts[b] as number[]).length);
  return [order.filter((_, k) => k % 2 === 0), order.filter((_, k) => k % 2 === 1)];
};
const largest = (ids: number[]) => Math.max(...ids.map((i) => budgets[i] as number));

describe('decoding shared out over two processes', () => {
  it('answers every prompt as one process does, each answer reported once, progress over both', async () => {
    const one = await generate(1);
    const two = await generate(2);
    expect(one.shared).toBeUndefined();
    expect(two.shared?.processes).toBe(2);
    expect(two.outputs).toEqual(one.outputs);
    expect(two.outputs.map((o) => o.length)).toEqual(budgets);

    const answers = two.events.filter((e) => e.event === 'answer');
    expect(answers.map((e) => Number(e.index)).sort()).toEqual(prompts.map((_, i) => i));
    for (const e of answers) expect(e.tokens).toEqual(two.outputs[Number(e.index)]);

    // Each process decodes its share as one batch, which can take its largest budget.
    const total = dealt().reduce((n, ids) => n + largest(ids), 0);
    const decoding = two.events
      .filter((e) => e.event === 'decoding')
      .map((e) => [Number(e.done), Number(e.total)] as const);
    expect(decoding.at(-1)).toEqual([total, total]);
    expect(decoding.every(([, t]) => t === total)).toBe(true);
    expect(decoding.map(([d]) => d)).toEqual(decoding.map(([d]) => d).sort((a, b) => a - b));

    const helpers = two.shared?.helper_pids as number[];
    expect(helpers).toHaveLength(1);
    expect(helpers.some(alive)).toBe(false);
  });

  it('takes two processes by itself only for bfloat16 products, and one where memory is short', async () => {
    expect((await generate('auto')).shared).toBeUndefined(); // float32: one process
    const short = await generate(2, { availableMib: 1 });
    expect(short.shared).toMatchObject({
      processes: 1,
      reason: expect.stringMatching(/MiB more needed, 1 MiB available/),
    });
    expect(short.outputs).toEqual((await generate(1)).outputs);
  });

  it('leaves no helper behind when it is cancelled', async () => {
    const stop = new AbortController();
    let helpers: number[] = [];
    const events: TrainerEvent[] = [];
    const run = runTrainer(
      'generate',
      {
        model: basePath,
        // Long enough to be cancelled while both processes decode.
        prompts: Array.from({ length: 8 }, () => prompts[3]),
        max_new: Array.from({ length: 8 }, () => 4000),
        stop_ids: [],
        device: 'cpu',
        mixed_precision: false,
        processes: 2,
      },
      {
        threads: 2,
        signal: stop.signal,
        onEvent: (e) => {
          events.push(e);
          if (e.event === 'processes') helpers = e.helper_pids as number[];
          if (e.event === 'decoding' && helpers.length) stop.abort();
        },
      },
    );
    await expect(run).rejects.toThrow(/cancelled/);
    expect(helpers).toHaveLength(1);
    // The helper ends at its next send after the main process is gone: within a token or two.
    for (let i = 0; i < 50 && helpers.some(alive); i++) await new Promise((r) => setTimeout(r, 100));
    expect(helpers.some(alive)).toBe(false);
  });
});

describe('prompts read in blocks of columns', () => {
  it('give the answers of prompts read in one pass', async () => {
    // Longer than a block (256 columns), and of different lengths.
    const long = [301, 270, 90].map((n, i) =>
      Array.from({ length: n }, (_, k) => sample[(k + i) % sample.length] as number),
    );
    const blocks = await generate(1, { prompts: long });
    expect(blocks.outputs.map((o) => o.length)).toEqual([9, 14, 6]);
    expect((await generate(1, { prompts: long, prefillColumns: 100_000 })).outputs).toEqual(blocks.outputs);
    expect((await generate(1, { prompts: long, prefillColumns: 7 })).outputs).toEqual(blocks.outputs);
  });
});

describe('a KV cache grown as the answers grow', () => {
  it('answers as a cache made whole at the start does', async () => {
    // Room for every budget from the start, against 3 columns more at a time (grown six times
    // for the budget of 20).
    const whole = await generate(1, { cacheColumns: 100_000 });
    expect(whole.outputs.map((o) => o.length)).toEqual(budgets);
    expect((await generate(1, { cacheColumns: 3 })).outputs).toEqual(whole.outputs);
    expect((await generate(2, { cacheColumns: 3 })).outputs).toEqual(whole.outputs);
  });
});
