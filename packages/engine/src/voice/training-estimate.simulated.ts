// Runs made up from a recorded one, for the estimate's tests: its pairs as they came, then
// training at its measured pace (each step a tenth faster or slower at random, an epoch's end
// paused for its held-out loss) for as many epochs as early stopping allows, drawn with the
// chance the recorded runs showed, then its export and evaluation. Many of them show whether the
// estimate is right on average, which three recorded runs cannot.
import { seededRandom } from '../seeded-random.js';
import type { RecordedRun } from './training-estimate.recorded.js';

export interface SimulatedTraining {
  /** Steps in an epoch, and the epochs the preset allows: those of the recorded run's sizes. */
  stepsPerEpoch: number;
  epochs: number;
  /** The chance that an epoch from the second on is the last (early stopping). */
  lastEpochChance: number;
  /** Seconds: the trainer's start, a step, the held-out loss at an epoch's end, the evaluation. */
  start: number;
  step: number;
  epochEnd: number;
  evaluate: number;
}

/** The epochs a run trains: the first always leads to a second, each later one may be the last. */
function epochsTrained(sim: SimulatedTraining, random: () => number): number {
  let epoch = 1;
  while (epoch < sim.epochs && (epoch === 1 || random() >= sim.lastEpochChance)) epoch++;
  return epoch;
}

/** `count` runs, the same on every machine: the pairs of `base`, training and evaluation as `sim` says. */
export function simulatedRuns(base: RecordedRun, sim: SimulatedTraining, count: number, seed = 57): RecordedRun[] {
  const random = seededRandom(seed);
  return Array.from({ length: count }, () => {
    const steps = epochsTrained(sim, random) * sim.stepsPerEpoch;
    const stepsAt: number[] = [];
    let at = base.trainStart + sim.start * 1000;
    for (let step = 1; step <= steps; step++) {
      at += sim.step * 1000 * (0.9 + 0.2 * random());
      stepsAt.push(Math.round(at));
      if (step % sim.stepsPerEpoch === 0) at += sim.epochEnd * 1000;
    }
    const trainEnd = Math.round(at);
    return {
      ...base,
      stepsAt,
      trainEnd,
      evaluateStart: trainEnd,
      end: trainEnd + sim.evaluate * 1000,
    };
  });
}
