// Proof: asked to, the trainer measures the eval loss after every epoch, stops at the first epoch
// that does not lower it and returns the best epoch's weights (and, asked to, the base model's
// loss before the first step, equal to a separate measurement of the base); a run killed after
// an epoch's evaluation resumes to the same outcome; and without the request every step runs, as
// the house model's pretraining needs.
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomModelWithSampleTokens, tempDir } from '../test/fixtures.js';
import { heldOutLoss } from './held-out-loss.js';
import type { TrainerEvent } from './python.js';
import { TRAINING_PRESETS, type TrainingExample, train } from './train.js';

let dir: string;
let basePath: string;
let trainSet: TrainingExample[];
let evalSet: TrainingExample[];

beforeAll(async () => {
  dir = tempDir();
  let tokens: number[];
  ({ basePath, tokens } = await randomModelWithSampleTokens(dir));
  // Few examples and a hot learning rate: the model soon learns them by heart and gets worse on
  // the held-out ones (the same text backwards), so the eval loss turns up within a few epochs.
  trainSet = [];
  for (let i = 0; i + 24 <= tokens.length && trainSet.length < 6; i += 20)
    trainSet.push({ input: tokens.slice(i, i + 4), target: tokens.slice(i + 4, i + 24) });
  const reversed = [...tokens].reverse();
  evalSet = [0, 30].map((i) => ({ input: reversed.slice(i, i + 4), target: reversed.slice(i + 4, i + 24) }));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const EPOCHS = 30;
const request = (workDir: string, stop = true) => ({
  mode: 'lora' as const,
  modelPath: basePath,
  workDir,
  train: trainSet,
  eval: evalSet,
  preset: { ...TRAINING_PRESETS.tiny, epochs: EPOCHS, lr: 3e-2, batchSize: 3, warmupSteps: 1 },
  padId: 0,
  stopWhenEvalStopsImproving: stop,
  checkpointEvery: 1000,
  threads: 1,
});

describe('early stopping', () => {
  let stopped: Awaited<ReturnType<typeof train>>;

  it('stops at the first epoch that does not lower the eval loss and keeps the best', async () => {
    stopped = await train({ ...request(path.join(dir, 'stop')), measureBaseEvalLoss: true });
    const losses = stopped.evalLosses ?? [];
    expect(stopped.stoppedEarly).toBe(true);
    expect(losses.length).toBeLessThan(EPOCHS);
    expect(stopped.steps).toBe(2 * losses.length); // two steps an epoch
    // Every epoch but the last lowered the loss; the last did not.
    for (let i = 1; i < losses.length - 1; i++) expect(losses[i]).toBeLessThan(losses[i - 1] as number);
    expect(losses.at(-1)).toBeGreaterThanOrEqual(losses.at(-2) as number);
    expect(stopped.bestEpoch).toBe(losses.length - 1);
    expect(stopped.evalLoss).toBeCloseTo(Math.min(...losses), 5);
    // The adapter written is the best epoch's, not the last one's.
    const measured = await heldOutLoss({
      modelPath: basePath,
      adapterPath: stopped.adapterPath as string,
      examples: evalSet,
      workDir: path.join(dir, 'measure'),
      seqLen: 128,
      padId: 0,
      threads: 1,
    });
    expect(measured.loss).toBeCloseTo(stopped.evalLoss as number, 4);
    // Before the first step the LoRA adds nothing: the loss then is the base model's.
    const base = await heldOutLoss({
      modelPath: basePath,
      examples: evalSet,
      workDir: path.join(dir, 'measure-base'),
      seqLen: 128,
      padId: 0,
      threads: 1,
    });
    expect(stopped.baseEvalLoss).toBeCloseTo(base.loss, 4);
    expect(stopped.baseEvalLoss).not.toBeCloseTo(stopped.evalLoss as number, 2);
  });

  it('resumes after a kill past an epoch to the same outcome', async () => {
    const workDir = path.join(dir, 'killed');
    let pid = 0;
    let evaluated = false;
    const first = train({
      ...request(workDir),
      onEvent: (e: TrainerEvent) => {
        if (e.event === 'start') pid = Number(e.pid);
        if (e.event === 'eval') evaluated = true;
        // The checkpoint written right after the first epoch's evaluation.
        if (e.event === 'checkpoint' && evaluated) process.kill(pid, 'SIGKILL');
      },
    });
    await expect(first).rejects.toThrow(/SIGKILL/);
    const starts: TrainerEvent[] = [];
    const resumed = await train({ ...request(workDir), onEvent: (e) => e.event === 'start' && starts.push(e) });
    expect(starts[0]?.resumed_from).toBe(2);
    expect(resumed.bestEpoch).toBe(stopped.bestEpoch);
    expect(resumed.evalLosses?.length).toBe(stopped.evalLosses?.length);
    for (const [i, l] of (resumed.evalLosses ?? []).entries())
      expect(l).toBeCloseTo(stopped.evalLosses?.[i] as number, 4);
  });

  it('leaves a full training cut by maxSteps alone (the house model: many epochs, packed batches)', async () => {
    const full = await train({
      ...request(path.join(dir, 'full'), false),
      mode: 'full',
      train: trainSet.map((e) => ({ input: [], target: [...e.input, ...e.target] })),
      preset: { ...TRAINING_PRESETS.tiny, epochs: 100, lr: 3e-3, batchSize: 4, warmupSteps: 1 },
      maxSteps: 5,
    });
    expect(full.steps).toBe(5);
    expect(full.weightsPath).toBeTruthy();
    expect(full.evalLoss).toBeGreaterThan(0);
    expect(full.bestEpoch).toBeUndefined();
  });

  it('runs every epoch when not asked to stop', async () => {
    const all = await train(request(path.join(dir, 'all'), false));
    expect(all.steps).toBe(2 * EPOCHS);
    expect(all.bestEpoch).toBeUndefined();
    expect(all.evalLoss).toBeGreaterThan(0);
  });
});
