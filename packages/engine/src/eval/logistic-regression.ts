// Multinomial logistic regression with an L2 penalty, the objective of scikit-learn's
// LogisticRegression (multinomial, solver lbfgs, penalty l2):
//
//   minimise over W, b   ½ ‖W‖²  +  C Σ_i −log softmax(W x_i + b)[y_i]
//
// the intercepts b unpenalised. The objective is strictly convex in W, so there is one optimum,
// and any solver that reaches it gives scikit-learn's coefficients (authorship-reference.test.ts
// compares them). Fitted here with L-BFGS (lbfgs.ts).
//
// Shapes: a sample x is Float64Array(D); labels are class indices 0..K-1; weights is
// Float64Array(K*D), row k (weights[k*D .. k*D+D)) class k's weights; intercepts Float64Array(K).
import { type LbfgsOptions, minimizeLbfgs } from './lbfgs.js';

export interface LogisticModel {
  classes: number;
  features: number;
  weights: Float64Array;
  intercepts: Float64Array;
}

export interface LogisticFit extends LogisticModel {
  /** The objective at the fit. */
  objective: number;
  /** The objective's gradient's largest component there: how near the optimum it stopped. */
  gradientMax: number;
  iterations: number;
  converged: boolean;
}

export interface LogisticOptions extends LbfgsOptions {
  /** Inverse penalty strength, scikit-learn's C: larger fits the training samples more closely. */
  C?: number;
}

/** Writes the class scores W x + b for sample x into `scores` (K). */
function scoresOf(w: Float64Array, b: Float64Array, d: number, x: Float64Array, scores: Float64Array): void {
  for (let c = 0; c < scores.length; c++) {
    let z = b[c] as number;
    const row = c * d;
    for (let j = 0; j < d; j++) z += (w[row + j] as number) * (x[j] as number);
    scores[c] = z;
  }
}

/** Turns scores into probabilities in place (a softmax shifted by the largest, so exp never overflows); returns log Σ exp. */
function softmaxInPlace(scores: Float64Array): number {
  let top = Number.NEGATIVE_INFINITY;
  for (const z of scores) top = Math.max(top, z);
  let sum = 0;
  for (let c = 0; c < scores.length; c++) {
    const e = Math.exp((scores[c] as number) - top);
    scores[c] = e;
    sum += e;
  }
  for (let c = 0; c < scores.length; c++) scores[c] = (scores[c] as number) / sum;
  return top + Math.log(sum);
}

export function fitLogistic(
  x: readonly Float64Array[],
  y: readonly number[],
  classes: number,
  options: LogisticOptions = {},
): LogisticFit {
  const { C = 1, ...lbfgs } = options;
  if (x.length !== y.length || !x.length) throw new RangeError('fitLogistic needs one label per sample, and samples');
  const d = (x[0] as Float64Array).length;
  const k = classes;
  for (const label of y) {
    if (!Number.isInteger(label) || label < 0 || label >= k)
      throw new RangeError(`label ${label} is not a class 0..${k - 1}`);
  }
  const scores = new Float64Array(k);
  const objective = (theta: Float64Array, grad: Float64Array): number => {
    let value = 0;
    grad.fill(0);
    for (let i = 0; i < k * d; i++) {
      const w = theta[i] as number;
      value += 0.5 * w * w;
      grad[i] = w;
    }
    const [w, b] = [theta.subarray(0, k * d), theta.subarray(k * d)];
    x.forEach((xi, i) => {
      scoresOf(w, b, d, xi, scores);
      const label = y[i] as number;
      const own = scores[label] as number;
      value += C * (softmaxInPlace(scores) - own);
      for (let c = 0; c < k; c++) {
        const r = C * ((scores[c] as number) - (c === label ? 1 : 0));
        const row = c * d;
        for (let j = 0; j < d; j++) grad[row + j] = (grad[row + j] as number) + r * (xi[j] as number);
        grad[k * d + c] = (grad[k * d + c] as number) + r;
      }
    });
    return value;
  };
  // The loss's gradient grows with C and the sample count: the tolerance is relative to them.
  const gradientTolerance = lbfgs.gradientTolerance ?? 1e-7 * Math.max(1, C * x.length);
  const min = minimizeLbfgs(objective, new Float64Array(k * d + k), { ...lbfgs, gradientTolerance });
  return {
    classes: k,
    features: d,
    weights: min.x.slice(0, k * d),
    intercepts: min.x.slice(k * d),
    objective: min.value,
    gradientMax: min.gradientMax,
    iterations: min.iterations,
    converged: min.converged,
  };
}

/** The probability of each class for sample x: Float64Array(K), summing to 1. */
export function classProbabilities(model: LogisticModel, x: Float64Array): Float64Array {
  const { classes: k, features: d } = model;
  if (x.length !== d) throw new RangeError(`a sample of ${x.length} features for a model of ${d}`);
  const scores = new Float64Array(k);
  scoresOf(model.weights, model.intercepts, d, x, scores);
  softmaxInPlace(scores);
  return scores;
}
