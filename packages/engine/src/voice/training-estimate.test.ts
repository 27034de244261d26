// The time-left estimate, replayed on progress recorded from real runs (training-estimate.recorded.ts)
// and on made-up ones: every report carries its time, so nothing here reads the clock.
import { describe, expect, it } from 'vitest';
import { VOICE_PRESETS } from './train-voice.js';
import { type EstimatePriors, type ProgressMark, TrainingEstimate } from './training-estimate.js';
import { RECORDED_RUNS, type RecordedRun } from './training-estimate.recorded.js';

const TINY = VOICE_PRESETS.tiny;
const sizesOf = (run: Pick<RecordedRun, 'pairs' | 'trainPairs' | 'pairBatch'>, cachedPairs = false) => ({
  pairs: cachedPairs ? 0 : run.pairs,
  pairBatch: run.pairBatch,
  stepsPerEpoch: Math.ceil(run.trainPairs / TINY.batchSize),
  epochs: TINY.epochs,
  evaluationRewrites: 31,
});

/** The reports trainVoice makes in a recorded run, from the start of the pairs on. */
function marksOf(run: RecordedRun): ProgressMark[] {
  return [
    { stage: 'pairs', at: 0 },
    ...run.pairsAt.map((at, i): ProgressMark => ({ stage: 'pairs', at, done: i + 1, total: run.pairs })),
    { stage: 'pairs', at: run.pairsEnd },
    { stage: 'train', at: run.trainStart },
    ...run.stepsAt.map((at, i): ProgressMark => ({ stage: 'train', at, done: i + 1, total: run.trainTotal })),
    { stage: 'train', at: run.trainEnd },
    { stage: 'export', at: run.trainEnd },
    { stage: 'evaluate', at: run.evaluateStart },
  ];
}

/** The epochs a recorded run trained before early stopping ended it. */
const epochsRun = (run: RecordedRun) => run.stepsAt.length / sizesOf(run).stepsPerEpoch;

/**
 * Each report with the estimate it gave and the seconds the run actually had left. The estimate
 * is given the epochs this run's early stopping left (3 to 7 of 8 in the recorded runs, which no
 * estimate can know ahead): what is tested is its pace, stage by stage.
 */
function replay(run: RecordedRun, priors: EstimatePriors = { ...TINY.estimate, expectedEpochs: epochsRun(run) }) {
  const estimate = new TrainingEstimate(sizesOf(run), priors);
  return marksOf(run).map((mark) => ({ mark, left: estimate.observe(mark), actual: (run.end - mark.at) / 1000 }));
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] as number;

describe('TrainingEstimate on recorded runs', () => {
  it.each(RECORDED_RUNS)('says nothing until the first wave of pairs sets a pace ($characters characters)', (run) => {
    const reports = replay(run);
    const first = reports.findIndex((r) => r.left !== undefined);
    // The stage's start, then nine in ten of the first wave's answers: they come in a burst.
    expect(first).toBe(Math.ceil(0.9 * Math.min(run.pairBatch, run.pairs)));
    expect(reports.slice(first).every((r) => r.left !== undefined)).toBe(true);
  });

  it.each(RECORDED_RUNS)('stays near the time actually left ($characters characters)', (run) => {
    const ratios = replay(run)
      .filter((r) => r.left !== undefined && r.actual > 5)
      .map((r) => (r.left as number) / r.actual);
    // Never off by more than about half, then double; about right on the whole.
    expect(Math.min(...ratios)).toBeGreaterThan(0.6);
    expect(Math.max(...ratios)).toBeLessThan(2.1);
    expect(median(ratios)).toBeGreaterThan(0.85);
    expect(median(ratios)).toBeLessThan(1.4);
  });

  it.each(RECORDED_RUNS)('is within a quarter or 5 s once training is under way ($characters characters)', (run) => {
    const training = replay(run).filter((r) => r.mark.stage === 'train' && (r.mark.done ?? 0) >= 8);
    expect(training.length).toBeGreaterThan(10);
    // What it misses: an early stop an epoch before the usual one, the pause of an epoch's end.
    for (const r of training) expect(Math.abs((r.left as number) - r.actual)).toBeLessThan(Math.max(5, r.actual / 4));
  });

  it("takes its priors from the recorded runs: their epochs on average, a step's time per paraphrase", () => {
    const epochs = RECORDED_RUNS.map(epochsRun);
    expect(TINY.estimate.expectedEpochs).toBeCloseTo(epochs.reduce((a, b) => a + b) / epochs.length, 0);
    const ratios = RECORDED_RUNS.map((run) => {
      const step = ((run.stepsAt.at(-1) as number) - (run.stepsAt[0] as number)) / (run.stepsAt.length - 1);
      const wave = run.pairsAt[run.pairBatch - 1] as number;
      const pair = (run.pairsEnd - wave) / (run.pairs - run.pairBatch);
      return step / pair;
    });
    expect(Math.abs(median(ratios) / (TINY.estimate.stepPerPair as number) - 1)).toBeLessThan(0.1);
  });

  it.each(RECORDED_RUNS)('counts down through training ($characters characters)', (run) => {
    const lefts = replay(run)
      .filter((r) => r.mark.stage === 'train' && (r.mark.done ?? 0) >= 8)
      .map((r) => r.left as number);
    // Each step's report is lower than the one ten steps before it (over five, a run of slow steps
    // on the shared machine once held it level).
    for (let i = 10; i < lefts.length; i++) expect(lefts[i]).toBeLessThan(lefts[i - 10] as number);
  });
});

describe('TrainingEstimate', () => {
  const run = RECORDED_RUNS[0] as RecordedRun;

  it('counts the evaluation down, since it reports nothing until it ends', () => {
    const estimate = new TrainingEstimate(sizesOf(run), TINY.estimate);
    for (const mark of marksOf(run)) estimate.observe(mark);
    const atStart = estimate.observe({ stage: 'evaluate', at: run.evaluateStart }) as number;
    expect(atStart).toBeGreaterThan(1);
    expect(estimate.observe({ stage: 'evaluate', at: run.evaluateStart + 1000 })).toBeCloseTo(atStart - 1, 5);
    expect(estimate.observe({ stage: 'evaluate', at: run.evaluateStart + 60_000 })).toBe(0);
  });

  it('expects the epochs early stopping usually leaves, more once the trainer runs past them, never more than all', () => {
    const estimate = new TrainingEstimate({ ...sizesOf(run), stepsPerEpoch: 10 }, { expectedEpochs: 3.5 });
    expect(estimate.expectedSteps()).toBe(35); // 3.5 epochs of 10
    expect(estimate.expectedSteps(40)).toBe(40);
    expect(estimate.expectedSteps(41)).toBe(50);
    expect(estimate.expectedSteps(10_000)).toBe(80); // all 8
    // The trainer's own total says how many steps an epoch has (it drops examples too long to learn).
    estimate.observe({ stage: 'train', at: 0, done: 1, total: 72 });
    expect(estimate.expectedSteps()).toBe(32); // 3.5 epochs of 9, rounded up
  });

  it('waits for the trainer where the preset has no measured step-to-pair ratio', () => {
    const estimate = new TrainingEstimate(sizesOf(run), VOICE_PRESETS.standard.estimate);
    const lefts = marksOf(run).map((mark) => ({ mark, left: estimate.observe(mark) }));
    expect(lefts.filter((r) => r.mark.stage === 'pairs').every((r) => r.left === undefined)).toBe(true);
    // Two epochs of a standard run; then the trainer's pace and its measured start.
    const steps = lefts.filter((r) => r.mark.stage === 'train' && r.mark.done !== undefined);
    expect(steps.findIndex((r) => r.left !== undefined)).toBe(3);
  });

  it('takes the pace of pairs the trainer reports as it decodes, a share of the passages at a time', () => {
    // 32 passages in one batch of the trainer: it reports tokens taken, not answers (a wave of one).
    const estimate = new TrainingEstimate({ ...sizesOf(run), pairs: 32, pairBatch: 1 }, TINY.estimate);
    expect(estimate.observe({ stage: 'pairs', at: 0 })).toBeUndefined();
    expect(estimate.observe({ stage: 'pairs', at: 10_000, done: 0.8, total: 32 })).toBeUndefined();
    // 2 passages' worth in 20 s, so 10 s a passage: 30 more passages in 300 s, then the rest.
    const left = estimate.observe({ stage: 'pairs', at: 20_000, done: 2, total: 32 }) as number;
    expect(left).toBeGreaterThan(300);
    // Later reports at a better pace lower it (the batch's prompts were read before its first token).
    const later = estimate.observe({ stage: 'pairs', at: 60_000, done: 8, total: 32 }) as number;
    expect(later).toBeLessThan(left - 40);
  });

  it('goes by the trainer alone in a resumed run whose pairs were kept', () => {
    const estimate = new TrainingEstimate(sizesOf(run, true), TINY.estimate);
    expect(estimate.observe({ stage: 'pairs', at: 0 })).toBeUndefined();
    expect(estimate.observe({ stage: 'train', at: 100 })).toBeUndefined();
    // Resumed at step 20 of the 45 expected (5 epochs of 9): the trainer starts, then steps at 400 ms.
    const marks = [21, 22, 23, 24].map((done, i) => ({
      stage: 'train' as const,
      at: 2600 + 400 * i,
      done,
      total: 72,
    }));
    const lefts = marks.map((mark) => estimate.observe(mark));
    expect(lefts.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    // 21 steps at 0.4 s, then the evaluation's 31 rewrites, each 0.8 of a paraphrase (the step's
    // pace over the preset's ratio, 2.8); its losses came from the trainer.
    expect(TINY.estimate).toMatchObject({ expectedEpochs: 5, stepPerPair: 2.8 });
    expect(lefts[3]).toBeCloseTo(21 * 0.4 + 31 * 0.8 * (0.4 / 2.8), 5);
  });
});
