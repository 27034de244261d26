// One percentage for a whole training run: each stage owns a share of the bar, and within a
// stage the bar follows its units. Training's units are steps whose number nobody knows ahead
// (early stopping ends it), so each step takes its part of what is left of training's share: the
// steps it moved over those it moved and the steps expected after it. With a known total this
// is the steps over the total; when training runs longer than first expected the bar slows but
// still moves with every step. It used to be the steps over a total that grew past them, held
// by "never backwards": 85% for as long as a run trained past the usual stop (decision 39).
import { VOICE_TRAINING_STAGES, type VoiceTrainingStage } from '@ownvoice/shared';

/**
 * The share of the bar each stage has: about its share of a run's time on the house model (the
 * recorded runs, training-estimate.recorded.ts: the pairs 30 to 49%, training 46 to 62%, the
 * evaluation 4 to 8%, the export tens of milliseconds), so no stage's end is a jump.
 */
export const STAGE_WEIGHT: Record<VoiceTrainingStage, number> = {
  extract: 3,
  pairs: 30,
  train: 60,
  export: 1,
  evaluate: 6,
};

export class RunPercent {
  private shown = 0;
  private trainShare = 0;
  private trainStep = 0;

  /** The percent with `fraction` (0..1) of `stage` done; never lower than one shown before. */
  at(stage: VoiceTrainingStage, fraction: number): number {
    let before = 0;
    for (const s of VOICE_TRAINING_STAGES) {
      if (s === stage) break;
      before += STAGE_WEIGHT[s];
    }
    const within = STAGE_WEIGHT[stage] * Math.max(0, Math.min(1, fraction));
    this.shown = Math.max(this.shown, Math.min(100, before + within));
    return this.shown;
  }

  /**
   * The percent once training reached `step` (a resumed run's first report starts past 0) with
   * `stepsLeft` expected after it: zero at the last step the trainer may run.
   */
  afterStep(step: number, stepsLeft: number): number {
    if (step > this.trainStep) {
      const moved = step - this.trainStep;
      this.trainShare += (1 - this.trainShare) * (moved / (moved + Math.max(0, stepsLeft)));
      this.trainStep = step;
    }
    return this.at('train', this.trainShare);
  }
}
