// Proof: one serving trainer runs a Voice's paraphrases and then its training reading the model
// once, and the adapter is the one a trainer of its own would have written (the paraphrases'
// bfloat16 copy of the weights leaves the kept float32 ones as they were); a command that fails
// answers with its error and the next one runs; a command aborted after a training stops the
// process (training's SIGTERM handler is its own while it runs) and later commands are refused.
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomModelWithSampleTokens, tempDir } from '../test/fixtures.js';
import { generateOnTrainer } from './generate.js';
import { TrainerError, type TrainerEvent, TrainerProcess } from './python.js';
import { TRAINING_PRESETS, type TrainingExample, train } from './train.js';

let dir: string;
let basePath: string;
let tokens: number[];
let examples: TrainingExample[];

beforeAll(async () => {
  dir = tempDir();
  ({ basePath, tokens } = await randomModelWithSampleTokens(dir));
  examples = [];
  for (let i = 0; i + 24 <= tokens.length && examples.length < 8; i += 8)
    examples.push({ input: tokens.slice(i, i + 4), target: tokens.slice(i + 4, i + 24) });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const trainRequest = (workDir: string) => ({
  mode: 'lora' as const,
  modelPath: basePath,
  workDir,
  train: examples,
  eval: examples.slice(0, 2),
  measureBaseEvalLoss: true,
  preset: { ...TRAINING_PRESETS.tiny, batchSize: 4 },
  padId: 0,
  maxSteps: 4,
  threads: 1,
});

const paraphrase = (trainer?: TrainerProcess) =>
  generateOnTrainer({
    modelPath: basePath,
    prompts: [tokens.slice(0, 12), tokens.slice(20, 26)],
    maxNew: [8, 8],
    stopIds: [],
    device: 'cpu',
    // Decoding casts the frozen weights to bfloat16: the kept float32 ones must not change.
    mixedPrecision: true,
    threads: 1,
    ...(trainer ? { trainer } : {}),
  });

describe('a serving trainer', () => {
  it('paraphrases, then trains on the model it read once, as a trainer of its own would', async () => {
    const trainer = await TrainerProcess.open({ threads: 1 });
    const starts: TrainerEvent[] = [];
    let shared: Awaited<ReturnType<typeof train>>;
    let answers: number[][];
    try {
      answers = await paraphrase(trainer);
      shared = await train({
        ...trainRequest(path.join(dir, 'shared')),
        trainer,
        onEvent: (e) => e.event === 'start' && starts.push(e),
      });
    } finally {
      await trainer.close();
    }
    expect(starts[0]?.model_reads).toBe(1);
    expect(answers).toEqual(await paraphrase());
    const alone = await train({
      ...trainRequest(path.join(dir, 'alone')),
      onEvent: (e) => e.event === 'start' && starts.push(e),
    });
    expect(starts[1]?.model_reads).toBe(1);
    expect(shared.baseEvalLoss).toBe(alone.baseEvalLoss);
    expect(shared.evalLoss).toBe(alone.evalLoss);
    expect(readFileSync(shared.adapterPath as string)).toEqual(readFileSync(alone.adapterPath as string));
  });

  it('answers a failed command with its error and runs the next', async () => {
    const trainer = await TrainerProcess.open({ threads: 1 });
    try {
      await expect(trainer.run('random-model', { path: path.join(dir, 'x.gguf'), shape: '7b' })).rejects.toThrow(
        /shape must be one of/,
      );
      await expect(trainer.run('no-such-command', {})).rejects.toThrow(/unknown command no-such-command/);
      const done = await trainer.run('attention-check', { device: 'cpu', dtype: 'float32' });
      expect(done.event).toBe('done');
    } finally {
      await trainer.close();
    }
  });

  it('stops when a command after a training is aborted, and refuses the next', async () => {
    const trainer = await TrainerProcess.open({ threads: 1 });
    try {
      await train({ ...trainRequest(path.join(dir, 'before-abort')), trainer });
      const abort = new AbortController();
      // Long enough that the signal lands while it decodes; stopped at its start.
      const long = generateOnTrainer({
        modelPath: basePath,
        prompts: [tokens.slice(0, 8)],
        maxNew: [4000],
        stopIds: [],
        device: 'cpu',
        threads: 1,
        trainer,
        signal: abort.signal,
        onDecoding: () => abort.abort(),
      });
      await expect(long).rejects.toThrow('Training was cancelled.');
      await expect(trainer.run('attention-check', { device: 'cpu' })).rejects.toBeInstanceOf(TrainerError);
    } finally {
      await trainer.close();
    }
  });
});
