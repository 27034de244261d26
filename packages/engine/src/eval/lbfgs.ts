// Limited-memory BFGS (Nocedal and Wright, "Numerical Optimization", 2nd ed., algorithm 7.4 and
// 7.5): minimises a smooth function from its value and gradient, keeping the last `memory` steps
// and gradient changes as a picture of the curvature. The authorship classifier fits its
// logistic regression with it, as scikit-learn's default solver (lbfgs) does, so both reach the
// same optimum of the same convex objective.
//
// Shapes: x, the gradient and every stored step are Float64Array(n), n the number of parameters.

/** The function's value at x; writes its gradient at x into `gradient` (length n). */
export type Objective = (x: Float64Array, gradient: Float64Array) => number;

export interface LbfgsOptions {
  /** Step pairs kept. */
  memory?: number;
  maxIterations?: number;
  /** Stop once the gradient's largest component is at most this. */
  gradientTolerance?: number;
}

export interface Minimum {
  x: Float64Array;
  value: number;
  /** The gradient's largest absolute component at x. */
  gradientMax: number;
  iterations: number;
  /** Whether the gradient tolerance was met (not the iteration limit, nor a stalled line search). */
  converged: boolean;
}

const dot = (a: Float64Array, b: Float64Array) => {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
};
const maxAbs = (a: Float64Array) => a.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

/** Sufficient decrease (Armijo) of the backtracking line search, and its step shrink factor. */
const ARMIJO = 1e-4;
const SHRINK = 0.5;
const MAX_HALVINGS = 60;

export function minimizeLbfgs(f: Objective, start: Float64Array, options: LbfgsOptions = {}): Minimum {
  const { memory = 10, maxIterations = 1000, gradientTolerance = 1e-6 } = options;
  const n = start.length;
  let x = Float64Array.from(start);
  let g = new Float64Array(n);
  let value = f(x, g);
  const steps: Float64Array[] = []; // s_k = x_{k+1} - x_k
  const changes: Float64Array[] = []; // y_k = g_{k+1} - g_k
  const rhos: number[] = []; // 1 / (y_k . s_k)
  const alphas = new Float64Array(memory);
  let iterations = 0;
  for (; iterations < maxIterations; iterations++) {
    if (maxAbs(g) <= gradientTolerance) return { x, value, gradientMax: maxAbs(g), iterations, converged: true };
    // Two-loop recursion: direction = -H g, H the inverse Hessian the stored pairs imply.
    const d = Float64Array.from(g, (v) => -v);
    for (let k = steps.length - 1; k >= 0; k--) {
      const a = (rhos[k] as number) * dot(steps[k] as Float64Array, d);
      alphas[k] = a;
      const y = changes[k] as Float64Array;
      for (let i = 0; i < n; i++) d[i] = (d[i] as number) - a * (y[i] as number);
    }
    // The initial Hessian's scale: s.y / y.y of the latest pair, or a first step of length 1.
    const last = steps.length - 1;
    const gamma =
      last >= 0
        ? 1 / ((rhos[last] as number) * dot(changes[last] as Float64Array, changes[last] as Float64Array))
        : 1 / Math.max(1, Math.sqrt(dot(g, g)));
    for (let i = 0; i < n; i++) d[i] = (d[i] as number) * gamma;
    for (let k = 0; k < steps.length; k++) {
      const y = changes[k] as Float64Array;
      const b = (rhos[k] as number) * dot(y, d);
      const s = steps[k] as Float64Array;
      const a = alphas[k] as number;
      for (let i = 0; i < n; i++) d[i] = (d[i] as number) + (a - b) * (s[i] as number);
    }
    let slope = dot(g, d);
    if (slope >= 0) {
      // Not a descent direction (curvature pairs gone stale): fall back to steepest descent.
      steps.length = changes.length = rhos.length = 0;
      for (let i = 0; i < n; i++) d[i] = -(g[i] as number) / Math.max(1, Math.sqrt(dot(g, g)));
      slope = dot(g, d);
    }
    // Backtracking line search from the full step.
    const next = new Float64Array(n);
    const nextG = new Float64Array(n);
    let t = 1;
    let nextValue = Number.NaN;
    let halvings = 0;
    for (; halvings < MAX_HALVINGS; halvings++, t *= SHRINK) {
      for (let i = 0; i < n; i++) next[i] = (x[i] as number) + t * (d[i] as number);
      nextValue = f(next, nextG);
      if (nextValue <= value + ARMIJO * t * slope) break;
    }
    if (halvings === MAX_HALVINGS) break; // no step lowers it: as low as float64 can tell
    const s = Float64Array.from(next, (v, i) => v - (x[i] as number));
    const y = Float64Array.from(nextG, (v, i) => v - (g[i] as number));
    const sy = dot(s, y);
    // Keep the pair only where it shows positive curvature, so H stays positive definite.
    if (sy > 1e-12 * Math.sqrt(dot(s, s) * dot(y, y))) {
      if (steps.length === memory) {
        steps.shift();
        changes.shift();
        rhos.shift();
      }
      steps.push(s);
      changes.push(y);
      rhos.push(1 / sy);
    }
    x = next;
    g = nextG;
    value = nextValue;
  }
  const gradientMax = maxAbs(g);
  return { x, value, gradientMax, iterations, converged: gradientMax <= gradientTolerance };
}
