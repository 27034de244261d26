// The run's percentage, fed as trainVoice feeds it, on the recorded runs (training-estimate.recorded.ts)
// and on simulated ones that train every number of epochs early stopping allows.
import { describe, expect, it } from 'vitest';
import { RunPercent, STAGE_WEIGHT } from './run-percent.js';
import { VOICE_PRESETS } from './train-voice.js';
import { TrainingEstimate } from './training-estimate.js';
import { RECORDED_RUNS, type RecordedRun } from './training-estimate.recorded.js';
import { simulatedRuns } from './training-estimate.simulated.js';

const TINY = VOICE_PRESETS.tiny;
const stepsPerEpoch = (run: RecordedRun) => Math.ceil(run.trainPairs / TINY.batchSize);

/** The percent trainVoice reports at each training step of `run`, from `first` on (a resumed run starts later). */
function percentsAtSteps(run: RecordedRun, first = 1): number[] {
  const estimate = new TrainingEstimate(
    {
      pairs: run.pairs,
      pairBatch: run.pairBatch,
      stepsPerEpoch: stepsPerEpoch(run),
      epochs: TINY.epochs,
      evaluationRewrites: 31,
    },
    TINY.estimate,
  );
  const percent = new RunPercent();
  for (const [i, at] of run.pairsAt.entries()) {
    estimate.observe({ stage: 'pairs', at, done: i + 1, total: run.pairs });
    percent.at('pairs', (i + 1) / run.pairs);
  }
  return run.stepsAt.slice(first - 1).map((at, i) => {
    const step = first + i;
    estimate.observe({ stage: 'train', at, done: step, total: run.trainTotal });
    return percent.afterStep(step, estimate.expectedStepsLeft(step));
  });
}

const SIMULATED = simulatedRuns(
  RECORDED_RUNS[0] as RecordedRun,
  {
    stepsPerEpoch: 9,
    epochs: TINY.epochs,
    lastEpochChance: 0.25,
    start: 2.3,
    step: 0.65,
    epochEnd: 0.3,
    evaluate: 5.6,
  },
  40,
);

/** Whether the percent rose with every step, and by a whole point at least every five. */
function expectMovingWithSteps(percents: number[]) {
  for (const [i, p] of percents.entries()) {
    if (i > 0) expect(p).toBeGreaterThan(percents[i - 1] as number);
    if (i >= 5) expect(p - (percents[i - 5] as number)).toBeGreaterThanOrEqual(1);
  }
  // Training's share is reached only at its end (there the stage's last report fills it).
  expect(percents.at(-1) as number).toBeLessThanOrEqual(STAGE_WEIGHT.extract + STAGE_WEIGHT.pairs + STAGE_WEIGHT.train);
}

describe('RunPercent', () => {
  it.each(RECORDED_RUNS)('moves with every training step of a recorded run ($characters characters)', (run) => {
    // It sat at 85% from the end of the usual fifth epoch to the last step of the run that went
    // on to a seventh (issue 57).
    expectMovingWithSteps(percentsAtSteps(run));
  });

  it('moves with every training step however many epochs early stopping leaves', () => {
    const epochs = new Set(SIMULATED.map((run) => run.stepsAt.length / 9));
    expect([...epochs].sort()).toEqual([2, 3, 4, 5, 6, 7, 8]);
    for (const run of SIMULATED) expectMovingWithSteps(percentsAtSteps(run));
  });

  it('moves a step at a time as the steps over their total when the total is known', () => {
    const percent = new RunPercent();
    const train = STAGE_WEIGHT.train;
    const before = STAGE_WEIGHT.extract + STAGE_WEIGHT.pairs;
    // Ten steps in all: after each, those left.
    for (let step = 1; step <= 10; step++)
      expect(percent.afterStep(step, 10 - step)).toBeCloseTo(before + (train * step) / 10, 9);
  });

  it("starts a resumed run's training where its steps are, and never goes back", () => {
    const run = RECORDED_RUNS[2] as RecordedRun;
    const resumed = percentsAtSteps(run, 40);
    const before = STAGE_WEIGHT.extract + STAGE_WEIGHT.pairs;
    // Step 40 of about 103 expected: near two fifths of training's share.
    expect((resumed[0] as number) - before).toBeGreaterThan(0.3 * STAGE_WEIGHT.train);
    expect((resumed[0] as number) - before).toBeLessThan(0.5 * STAGE_WEIGHT.train);
    const percent = new RunPercent();
    expect(percent.at('export', 0)).toBe(before + STAGE_WEIGHT.train);
    expect(percent.at('pairs', 1)).toBe(before + STAGE_WEIGHT.train);
    expect(percent.at('evaluate', 1)).toBe(100);
  });
});
