import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random.js';
import { classProbabilities, fitLogistic } from './logistic-regression.js';

/**
 * The objective written out anew, from its definition: ½‖W‖² + C Σ −log softmax(W x + b)[y]. The
 * fit's optimum is checked against this, not against the code that fitted it.
 */
function objective(theta: number[], x: number[][], y: number[], k: number, C: number): number {
  const d = (x[0] as number[]).length;
  let penalty = 0;
  for (let i = 0; i < k * d; i++) penalty += 0.5 * (theta[i] as number) ** 2;
  let loss = 0;
  x.forEach((xi, i) => {
    const z = Array.from({ length: k }, (_, c) =>
      xi.reduce((s, v, j) => s + (theta[c * d + j] as number) * v, theta[k * d + c] as number),
    );
    loss -= Math.log(Math.exp(z[y[i] as number] as number) / z.reduce((s, v) => s + Math.exp(v), 0));
  });
  return penalty + C * loss;
}

/** Three overlapping clouds of points in 4 dimensions, one per class. */
function clouds(perClass: number, seed: number) {
  const rand = seededRandom(seed);
  const gauss = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const centres = [
    [1, 0, 0, 0.5],
    [0, 1, 0, -0.5],
    [0, 0, 1, 0],
  ];
  const x: number[][] = [];
  const y: number[] = [];
  centres.forEach((centre, c) => {
    for (let i = 0; i < perClass; i++) {
      x.push(centre.map((m) => m + gauss()));
      y.push(c);
    }
  });
  return { x, y };
}

describe('multinomial logistic regression', () => {
  it('matches a case solved by hand: two points, one feature, two classes', () => {
    // x = +1 is class 0, x = −1 class 1. By symmetry W = (a, −a) and the intercepts are equal, so
    // the objective is a² + 2C log(1 + e^(−2a)), whose derivative vanishes where
    // a = 2C (1 − σ(2a)). Solved here by bisection.
    const C = 1;
    const sigmoid = (t: number) => 1 / (1 + Math.exp(-t));
    let [lo, hi] = [0, 2 * C];
    for (let i = 0; i < 200; i++) {
      const mid = (lo + hi) / 2;
      if (mid - 2 * C * (1 - sigmoid(2 * mid)) > 0) hi = mid;
      else lo = mid;
    }
    const a = (lo + hi) / 2;
    const fit = fitLogistic([Float64Array.of(1), Float64Array.of(-1)], [0, 1], 2, { C, gradientTolerance: 1e-12 });
    expect(fit.converged).toBe(true);
    expect(fit.weights[0]).toBeCloseTo(a, 9);
    expect(fit.weights[1]).toBeCloseTo(-a, 9);
    expect(classProbabilities(fit, Float64Array.of(1))[0]).toBeCloseTo(sigmoid(2 * a), 9);
    // The root itself, checked by hand: σ(1.0426) = 1 / (1 + 0.3525) = 0.7394, and 2 (1 − 0.7394) = 0.5213.
    expect(a).toBeCloseTo(0.5213, 3);
  });

  it('stops at the optimum: no small step in any direction lowers the objective', () => {
    const { x, y } = clouds(20, 7);
    const C = 0.5;
    const fit = fitLogistic(
      x.map((r) => Float64Array.from(r)),
      y,
      3,
      { C },
    );
    const theta = [...fit.weights, ...fit.intercepts];
    const best = objective(theta, x, y, 3, C);
    expect(fit.objective).toBeCloseTo(best, 8);
    // Central differences of the objective written out above: its gradient is zero there, to
    // within the fit's tolerance, where at zero it is of the order of the sample count.
    const h = 1e-5;
    const atZero = theta.map(() => 0);
    const slope = (at: number[], i: number) => {
      const up = [...at];
      const down = [...at];
      up[i] = (up[i] as number) + h;
      down[i] = (down[i] as number) - h;
      return (objective(up, x, y, 3, C) - objective(down, x, y, 3, C)) / (2 * h);
    };
    const largest = (at: number[]) => Math.max(...at.map((_, i) => Math.abs(slope(at, i))));
    expect(largest(atZero)).toBeGreaterThan(1);
    expect(largest(theta)).toBeLessThan(1e-4);
    const rand = seededRandom(3);
    for (let trial = 0; trial < 20; trial++) {
      const moved = theta.map((t) => t + 1e-3 * (rand() - 0.5));
      expect(objective(moved, x, y, 3, C)).toBeGreaterThan(best);
    }
  });

  it('gives probabilities that sum to one and favour the class a point lies nearest', () => {
    const { x, y } = clouds(30, 11);
    const fit = fitLogistic(
      x.map((r) => Float64Array.from(r)),
      y,
      3,
    );
    const p = classProbabilities(fit, Float64Array.of(3, 0, 0, 1));
    expect(p.reduce((s, v) => s + v, 0)).toBeCloseTo(1, 12);
    expect(p[0]).toBeGreaterThan(0.9);
  });

  it('penalises less with a larger C: the weights grow', () => {
    const { x, y } = clouds(15, 5);
    const rows = x.map((r) => Float64Array.from(r));
    const norm = (w: Float64Array) => Math.hypot(...w);
    expect(norm(fitLogistic(rows, y, 3, { C: 10 }).weights)).toBeGreaterThan(
      norm(fitLogistic(rows, y, 3, { C: 0.1 }).weights),
    );
  });

  it('refuses labels outside the classes and mismatched lengths', () => {
    expect(() => fitLogistic([Float64Array.of(1)], [2], 2)).toThrow(RangeError);
    expect(() => fitLogistic([Float64Array.of(1)], [0, 1], 2)).toThrow(RangeError);
  });
});
