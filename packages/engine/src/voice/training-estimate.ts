// How long a training has left, from its own pace: the rest of the stage under way at the rate
// this run measured for it, plus each stage still to come projected from its size (known once
// the writing is read) and the rates measured so far in this run. Until a rate is measured
// there is no estimate: the page says it is estimating. Pure: each report brings its own time.
//
// The parts of a run, and what they cost (measured on the house model, tiny preset, two cores,
// 21,000 to 120,000 characters: 71 to 143 s in all):
//   pairs     one paraphrase per passage, decoded a batch at a time (16 on the engine), so the
//             answers come in waves; their rate is the stage's time so far per answer, at its
//             best (the end of a wave), trusted once nearly all of the first wave is in (the
//             trainer reports a share of its passages as it decodes: a wave of one)
//   train     the trainer's start (a Python process loading the model and measuring the base
//             model's held-out loss: 2 to 2.6 s), then steps at an even pace; early stopping
//             ends it when an epoch no longer lowers the held-out loss, which on the tiny
//             preset was after 3 to 7 of its 8 epochs. No run can know its stop ahead, so the
//             steps left are their expected number: the rest of the epoch under way, and each
//             epoch after it weighed by the chance the run gets there (lastEpochChance). Going
//             by the usual stop instead told a run that trained past it "the end of this
//             epoch", every epoch: down to a third of the time it had left (decision 39)
//   export    tens of milliseconds
//   evaluate  the Voice's rewrites of the neutral paragraphs and a few samples, many at once
//             (four to seven seconds; its held-out losses come from training); it reports
//             nothing in between, so its projection counts down
import { VOICE_TRAINING_STAGES, type VoiceTrainingStage as VoiceStage } from '@ownvoice/shared';

/** What a run has to do, known once its writing is read. */
export interface RunSizes {
  /** Passages the base model paraphrases: 0 when a resumed run has its pairs already. */
  pairs: number;
  /** Paraphrases decoded at once: their answers come a batch at a time (1 where progress is continuous). */
  pairBatch: number;
  /** Training steps in an epoch, and the epochs the trainer may run. */
  stepsPerEpoch: number;
  epochs: number;
  /** Texts the evaluation rewrites with the Voice (its held-out losses come from training). */
  evaluationRewrites: number;
}

/** What a preset's runs were measured to take, for the parts of a run not measured yet. */
export interface EstimatePriors {
  /**
   * The chance that an epoch from the second on is the last one trained: early stopping ends a
   * run after the first epoch that does not lower the held-out loss (the first epoch cannot end
   * it, there being none before it to compare with), and the preset's epochs end it anyway.
   */
  lastEpochChance: number;
  /**
   * Seconds a training step takes per second a paraphrase takes: projects training from the
   * pairs' pace before the trainer has reported. Without it there is no estimate until then.
   */
  stepPerPair?: number;
  /** Seconds the trainer takes to start, until this run has measured it. */
  trainerStartSeconds?: number;
}

/** One progress report: its stage, when it came (ms) and, for pairs and train, units done. */
export interface ProgressMark {
  stage: VoiceStage;
  at: number;
  done?: number;
  /** The stage's unit total as reported (the trainer's step total counts every epoch). */
  total?: number;
}

/**
 * A rewrite in the evaluation takes about 0.8 of a paraphrase (the evaluation's seconds over its
 * rewrites, per paraphrase, in the tiny preset's three recorded runs: 0.54, 0.81 and 0.84).
 */
const REWRITE_PER_PAIR = 0.8;
/** Training steps' rate is trusted once this share of them (and at least MIN_UNITS) came after the first. */
const TRUSTED_STEP_SHARE = 0.05;
const MIN_UNITS = 3;

interface UnitMark {
  at: number;
  done: number;
}

interface StageSeen {
  start: number;
  /** Its first and latest reports with units done. */
  first?: UnitMark;
  last?: UnitMark;
  /** Pairs: the fewest seconds per answer since the stage began, over the trusted reports. */
  bestPace?: number;
}

/** The share of the first wave of paraphrases in before their pace is trusted (some run long). */
const FIRST_WAVE_SHARE = 0.9;

export class TrainingEstimate {
  private readonly seen = new Map<VoiceStage, StageSeen>();
  private current: VoiceStage = 'extract';
  private pairs: number;
  private stepsPerEpoch: number;

  constructor(
    private readonly sizes: RunSizes,
    private readonly priors: EstimatePriors,
  ) {
    this.pairs = sizes.pairs;
    this.stepsPerEpoch = sizes.stepsPerEpoch;
  }

  /** Records a report; the seconds left in the whole run as of it, or undefined while estimating. */
  observe(mark: ProgressMark): number | undefined {
    this.current = mark.stage;
    let stage = this.seen.get(mark.stage);
    if (!stage) {
      stage = { start: mark.at };
      this.seen.set(mark.stage, stage);
    }
    // The reported totals are the ones to go by: the trainer drops examples too long to learn from.
    if (mark.stage === 'pairs' && mark.total) this.pairs = mark.total;
    if (mark.stage === 'train' && mark.total) {
      this.stepsPerEpoch = Math.max(1, Math.round(mark.total / this.sizes.epochs));
    }
    if (mark.done !== undefined && mark.done > 0) {
      stage.first ??= { at: mark.at, done: mark.done };
      stage.last = { at: mark.at, done: mark.done };
      // Time so far per answer is lowest as a wave ends (then each answer waited one wave for W
      // answers); just after, the next wave's first answers make it look slower than it is.
      const wave = Math.min(this.sizes.pairBatch, this.pairs);
      if (mark.stage === 'pairs' && mark.done >= Math.ceil(FIRST_WAVE_SHARE * wave) && mark.at > stage.start) {
        const pace = (mark.at - stage.start) / 1000 / mark.done;
        stage.bestPace = Math.min(stage.bestPace ?? pace, pace);
      }
    }
    return this.secondsLeft(mark.at);
  }

  /**
   * The training steps expected after `step`: the rest of its epoch, then each epoch still
   * allowed, weighed by the chance that early stopping has not ended the run before it. Never
   * zero before the last step the trainer may run, so training's share of the bar always moves.
   */
  expectedStepsLeft(step = 0): number {
    const spe = this.stepsPerEpoch;
    const epochs = this.sizes.epochs;
    // The epoch that `step` is part of (its last step included); the first before any step.
    const epoch = Math.min(epochs, Math.max(1, Math.ceil(step / spe)));
    let left = Math.max(0, epoch * spe - step);
    let reached = 1;
    for (let next = epoch + 1; next <= epochs; next++) {
      // The epoch before `next` may have been the last, unless it was the first.
      if (next - 1 >= 2) reached *= 1 - this.priors.lastEpochChance;
      left += reached * spe;
    }
    return left;
  }

  private secondsLeft(at: number): number | undefined {
    let left = 0;
    for (const stage of VOICE_TRAINING_STAGES.slice(VOICE_TRAINING_STAGES.indexOf(this.current))) {
      const part = stage === this.current ? this.restOf(stage, at) : this.projected(stage);
      if (part === undefined) return undefined;
      left += part;
    }
    return left;
  }

  /** Seconds a stage still to come will take. */
  private projected(stage: VoiceStage): number | undefined {
    switch (stage) {
      case 'extract':
      case 'export':
        return 0;
      case 'pairs': {
        const pair = this.pairSeconds();
        return this.pairs === 0 ? 0 : pair === undefined ? undefined : this.pairs * pair;
      }
      case 'train': {
        const [start, step] = [this.trainerStart(), this.stepSeconds()];
        return start === undefined || step === undefined ? undefined : start + this.expectedStepsLeft() * step;
      }
      case 'evaluate': {
        // A resumed run that skipped its pairs and whose preset has no step-to-pair ratio has no
        // pace for the rewrites: they are left out (an underestimate of a few seconds).
        const rewrite = (this.pairSeconds() ?? 0) * REWRITE_PER_PAIR;
        return this.sizes.evaluationRewrites * rewrite;
      }
    }
  }

  /** Seconds left in the stage under way, as of `at`. */
  private restOf(stage: VoiceStage, at: number): number | undefined {
    const seen = this.seen.get(stage) as StageSeen;
    const since = (from: number) => Math.max(0, at - from) / 1000;
    switch (stage) {
      case 'extract':
        // The sizes are known only once the writing is read.
        return undefined;
      case 'export':
        return 0;
      case 'pairs': {
        const pair = this.pairSeconds();
        if (pair === undefined) return undefined;
        const done = seen.last?.done ?? 0;
        return Math.max(0, (this.pairs - done) * pair - since(seen.last?.at ?? seen.start));
      }
      case 'train': {
        const step = this.stepSeconds();
        if (step === undefined) return undefined;
        const last = seen.last;
        if (!last) {
          const start = this.trainerStart();
          if (start === undefined) return undefined;
          return Math.max(0, start - since(seen.start)) + this.expectedStepsLeft() * step;
        }
        return Math.max(0, this.expectedStepsLeft(last.done) * step - since(last.at));
      }
      case 'evaluate': {
        const whole = this.projected('evaluate');
        return whole === undefined ? undefined : Math.max(0, whole - since(seen.start));
      }
    }
  }

  /** Seconds a paraphrase takes, in a stream of waves (see bestPace). */
  private measuredPair(): number | undefined {
    return this.seen.get('pairs')?.bestPace;
  }

  /**
   * Seconds a step takes from the first step to the latest, once enough came: from the first
   * rather than the stage's start, so the trainer's start is not counted as pace.
   */
  private measuredStep(): number | undefined {
    const seen = this.seen.get('train');
    if (!seen?.first || !seen.last || seen.last.at <= seen.first.at) return undefined;
    const counted = seen.last.done - seen.first.done;
    if (counted < Math.max(MIN_UNITS, Math.ceil(this.expectedStepsLeft() * TRUSTED_STEP_SHARE))) return undefined;
    return (seen.last.at - seen.first.at) / 1000 / counted;
  }

  private pairSeconds(): number | undefined {
    const step = this.measuredStep();
    const ratio = this.priors.stepPerPair;
    return this.measuredPair() ?? (step !== undefined && ratio ? step / ratio : undefined);
  }

  private stepSeconds(): number | undefined {
    const pair = this.measuredPair();
    const ratio = this.priors.stepPerPair;
    return this.measuredStep() ?? (pair !== undefined && ratio ? pair * ratio : undefined);
  }

  /** The trainer's start: its first step's report, less a step, once it came; the prior until then. */
  private trainerStart(): number | undefined {
    const seen = this.seen.get('train');
    if (!seen?.first) return this.priors.trainerStartSeconds;
    return Math.max(0, (seen.first.at - seen.start) / 1000 - (this.stepSeconds() ?? 0));
  }
}
