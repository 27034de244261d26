import { describe, expect, it } from 'vitest';
import { minimizeLbfgs } from './lbfgs.js';

describe('minimizeLbfgs', () => {
  it("finds Rosenbrock's minimum at (1, 1) from the textbook start (-1.2, 1)", () => {
    // f = (1 - x)^2 + 100 (y - x^2)^2: a curved valley that plain gradient descent crawls along.
    const min = minimizeLbfgs(
      (p, g) => {
        const [x, y] = [p[0] as number, p[1] as number];
        g[0] = -2 * (1 - x) - 400 * x * (y - x * x);
        g[1] = 200 * (y - x * x);
        return (1 - x) ** 2 + 100 * (y - x * x) ** 2;
      },
      Float64Array.from([-1.2, 1]),
      { gradientTolerance: 1e-9 },
    );
    expect(min.converged).toBe(true);
    expect(min.x[0]).toBeCloseTo(1, 6);
    expect(min.x[1]).toBeCloseTo(1, 6);
    expect(min.value).toBeLessThan(1e-12);
    expect(min.iterations).toBeLessThan(100);
  });

  it('solves a convex quadratic exactly: the minimum of ½ xᵀAx − bᵀx is A⁻¹b', () => {
    // A = [[4, 1], [1, 3]], b = (1, 2): A⁻¹b = (1/11, 7/11).
    const min = minimizeLbfgs(
      (p, g) => {
        const [x, y] = [p[0] as number, p[1] as number];
        g[0] = 4 * x + y - 1;
        g[1] = x + 3 * y - 2;
        return 0.5 * (4 * x * x + 2 * x * y + 3 * y * y) - x - 2 * y;
      },
      new Float64Array(2),
      { gradientTolerance: 1e-12 },
    );
    expect(min.x[0]).toBeCloseTo(1 / 11, 9);
    expect(min.x[1]).toBeCloseTo(7 / 11, 9);
  });

  it('stops at the iteration limit and says it did not converge', () => {
    const min = minimizeLbfgs(
      (p, g) => {
        const [x, y] = [p[0] as number, p[1] as number];
        g[0] = -2 * (1 - x) - 400 * x * (y - x * x);
        g[1] = 200 * (y - x * x);
        return (1 - x) ** 2 + 100 * (y - x * x) ** 2;
      },
      Float64Array.from([-1.2, 1]),
      { maxIterations: 3 },
    );
    expect(min.converged).toBe(false);
    expect(min.iterations).toBe(3);
  });
});
