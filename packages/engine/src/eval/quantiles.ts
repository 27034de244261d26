// Summaries of a spread of figures: the median with the middle half around it.

export interface Spread {
  median: number;
  /** 25th percentile. */
  low: number;
  /** 75th percentile. */
  high: number;
  n: number;
}

/** The q-quantile (0..1) of `values`, interpolating between neighbours; NaN when empty. */
export function quantile(values: readonly number[], q: number): number {
  if (!values.length) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * Math.min(1, Math.max(0, q));
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return (sorted[lo] as number) + ((sorted[hi] as number) - (sorted[lo] as number)) * (at - lo);
}

export const spreadOf = (values: readonly number[]): Spread => ({
  median: quantile(values, 0.5),
  low: quantile(values, 0.25),
  high: quantile(values, 0.75),
  n: values.length,
});
