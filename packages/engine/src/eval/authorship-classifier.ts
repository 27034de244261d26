// Whose writing a passage reads as: an authorship classifier over a few writers and neutral prose.
// Trained on labelled passages (each author's held-out passages, and neutral paragraphs by none of
// them), it first measures itself: its stratified k-fold cross-validated accuracy, which says how
// far its verdicts on rewrites can be trusted and must be reported before them. Fitted then on
// all the passages, it gives each rewrite the probability of each class.
//
// The pipeline, fitted on the training passages alone (in cross-validation, on the other folds):
//   FeatureSpace (authorship-features.ts)        text → Float64Array(D) of n-gram and word shares
//   z-scores on the training passages             each feature less its mean, over its standard
//                                                 deviation (population, as scikit-learn's
//                                                 StandardScaler), so the penalty weighs all alike
//   multinomial logistic regression (C = 1)       Float64Array(D) → a probability per class
//                                                 (logistic-regression.ts)
// With two classes this is still the multinomial objective (two weight rows), not scikit-learn's
// binary one, whose single row is penalised differently: the same C means a different fit.

import { seededRandom } from '../seeded-random.js';
import { type FeatureOptions, FeatureSpace } from './authorship-features.js';
import { classProbabilities, fitLogistic, type LogisticFit, type LogisticOptions } from './logistic-regression.js';

export interface AuthorshipOptions extends FeatureOptions, Pick<LogisticOptions, 'C'> {
  /** Folds of the cross-validation: fewer when a class has fewer passages, at least 2. */
  folds?: number;
  /** Seed of the passages' shuffle into folds. */
  seed?: number;
}

export interface CrossValidation {
  /** Share of passages whose held-out prediction was their own class. */
  accuracy: number;
  folds: number;
  passages: number;
  /** confusion[actual][predicted]: how many passages of each class went to each. */
  confusion: Record<string, Record<string, number>>;
}

/** A fitted pipeline: the features chosen, their scale, and the regression over them. */
interface Fitted {
  space: FeatureSpace;
  mean: Float64Array;
  /** 1 / standard deviation, 0 where a feature never varied in training (it then counts for nothing). */
  inverseSd: Float64Array;
  model: LogisticFit;
}

function fitPipeline(
  texts: readonly string[],
  labels: readonly number[],
  classes: number,
  options: AuthorshipOptions,
): Fitted {
  const space = FeatureSpace.fit(texts, options);
  const raw = texts.map((t) => space.vector(t));
  const d = (raw[0] as Float64Array).length;
  const mean = new Float64Array(d);
  const inverseSd = new Float64Array(d);
  for (let j = 0; j < d; j++) {
    let m = 0;
    for (const v of raw) m += v[j] as number;
    m /= raw.length;
    let s = 0;
    for (const v of raw) s += ((v[j] as number) - m) ** 2;
    const sd = Math.sqrt(s / raw.length);
    mean[j] = m;
    inverseSd[j] = sd > 0 ? 1 / sd : 0;
  }
  const scaled = raw.map((v) => standardise(v, mean, inverseSd));
  return { space, mean, inverseSd, model: fitLogistic(scaled, labels, classes, { C: options.C ?? 1 }) };
}

const standardise = (v: Float64Array, mean: Float64Array, inverseSd: Float64Array) =>
  v.map((x, j) => (x - (mean[j] as number)) * (inverseSd[j] as number));

const predict = (f: Fitted, text: string) =>
  classProbabilities(f.model, standardise(f.space.vector(text), f.mean, f.inverseSd));

const argmax = (p: Float64Array) => p.reduce((best, v, i) => (v > (p[best] as number) ? i : best), 0);

/**
 * Each passage's fold, 0..folds-1: each class's passages shuffled (seeded) and dealt round, so
 * every fold holds about the same share of every class.
 */
function stratifiedFolds(labels: readonly number[], classes: number, folds: number, seed: number): number[] {
  const rand = seededRandom(seed);
  const fold = new Array<number>(labels.length).fill(0);
  for (let c = 0; c < classes; c++) {
    const members = labels.flatMap((l, i) => (l === c ? [i] : []));
    for (let i = members.length - 1; i > 0; i--) {
      const j = Math.floor(rand() * (i + 1));
      [members[i], members[j]] = [members[j] as number, members[i] as number];
    }
    members.forEach((index, position) => {
      fold[index] = position % folds;
    });
  }
  return fold;
}

/** The likeliest class of `probabilities` (probabilities' answer); the first of equals. */
export const likeliest = (probabilities: Readonly<Record<string, number>>): string =>
  Object.entries(probabilities).reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];

export class AuthorshipClassifier {
  private constructor(
    /** The class names, in the order of `passages`' keys. */
    readonly classes: readonly string[],
    readonly crossValidation: CrossValidation,
    private readonly fitted: Fitted,
  ) {}

  /**
   * Cross-validates, then fits on every passage. `passages` maps each class (an author, or
   * "neutral") to its passages; each class needs at least two. Throws RangeError otherwise.
   */
  static train(
    passages: Readonly<Record<string, readonly string[]>>,
    options: AuthorshipOptions = {},
  ): AuthorshipClassifier {
    const classes = Object.keys(passages);
    if (classes.length < 2) throw new RangeError('an authorship classifier needs at least two classes');
    const texts: string[] = [];
    const labels: number[] = [];
    classes.forEach((name, c) => {
      const own = passages[name] ?? [];
      if (own.length < 2) throw new RangeError(`class ${name} has ${own.length} passages; it needs at least two`);
      for (const p of own) {
        texts.push(p);
        labels.push(c);
      }
    });
    const smallest = Math.min(...classes.map((name) => (passages[name] ?? []).length));
    const folds = Math.max(2, Math.min(options.folds ?? 5, smallest));
    const foldOf = stratifiedFolds(labels, classes.length, folds, options.seed ?? 0);
    const confusion = Object.fromEntries(classes.map((a) => [a, Object.fromEntries(classes.map((p) => [p, 0]))]));
    let right = 0;
    for (let f = 0; f < folds; f++) {
      const train = texts.flatMap((_, i) => (foldOf[i] === f ? [] : [i]));
      const fitted = fitPipeline(
        train.map((i) => texts[i] as string),
        train.map((i) => labels[i] as number),
        classes.length,
        options,
      );
      texts.forEach((text, i) => {
        if (foldOf[i] !== f) return;
        const guess = argmax(predict(fitted, text));
        const actual = labels[i] as number;
        if (guess === actual) right++;
        const row = confusion[classes[actual] as string] as Record<string, number>;
        row[classes[guess] as string] = (row[classes[guess] as string] as number) + 1;
      });
    }
    const crossValidation = { accuracy: right / texts.length, folds, passages: texts.length, confusion };
    return new AuthorshipClassifier(classes, crossValidation, fitPipeline(texts, labels, classes.length, options));
  }

  /** The probability of each class for `text`; they sum to 1. */
  probabilities(text: string): Record<string, number> {
    const p = predict(this.fitted, text);
    return Object.fromEntries(this.classes.map((name, c) => [name, p[c] as number]));
  }

  /** The class `text` is most probably by. */
  attribute(text: string): string {
    return likeliest(this.probabilities(text));
  }
}
