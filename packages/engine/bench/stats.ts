// Benchmark statistics: a figure is the median of several samples with their spread, never one
// sample. Cases run interleaved (A B C, A B C, ...) so a slow patch of the machine (another
// process, thermal throttling) falls on every case alike instead of on whichever ran then; a
// ratio is taken within each round, where both sides met the same conditions, and then summarised.

import { quantile } from '../src/eval/quantiles.js';

export interface Summary {
  samples: number[];
  median: number;
  min: number;
  max: number;
  /** (max - min) / |median|: 0.1 means the samples span 10% of the median. */
  relativeSpread: number;
}

/** At least three samples: fewer give no idea of the spread. */
export const MIN_ROUNDS = 3;

export function median(xs: readonly number[]): number {
  if (xs.length === 0) throw new Error('the median of no samples');
  return quantile(xs, 0.5);
}

export function summarize(samples: readonly number[]): Summary {
  const m = median(samples);
  const min = Math.min(...samples);
  const max = Math.max(...samples);
  return { samples: [...samples], median: m, min, max, relativeSpread: m === 0 ? 0 : (max - min) / Math.abs(m) };
}

export interface BenchCase<N extends string> {
  name: N;
  /** One sample: the figure measured (tokens/s, milliseconds...). */
  run: () => Promise<number>;
}

export interface InterleaveOptions {
  /**
   * Fewest rounds accepted (MIN_ROUNDS by default). Only a run that proves a code path, not one
   * whose figures are reported, asks for fewer: its "median" of one sample says nothing of the spread.
   */
  minRounds?: number;
}

/**
 * Runs every case once per round, in the order given, for `rounds` rounds, and summarises each
 * case's samples. A case may rely on the one before it in a round (sleep after wake).
 */
export async function measureInterleaved<N extends string>(
  cases: readonly BenchCase<N>[],
  rounds: number,
  { minRounds = MIN_ROUNDS }: InterleaveOptions = {},
): Promise<Record<N, Summary>> {
  const least = Math.max(1, minRounds);
  if (!Number.isInteger(rounds) || rounds < least) {
    throw new Error(`at least ${least} rounds are needed for a median with a spread, not ${rounds}`);
  }
  if (new Set(cases.map((c) => c.name)).size !== cases.length) throw new Error('case names must differ');
  const samples = new Map<N, number[]>(cases.map((c) => [c.name, []]));
  for (let round = 0; round < rounds; round++) {
    for (const c of cases) samples.get(c.name)?.push(await c.run());
  }
  return Object.fromEntries(cases.map((c) => [c.name, summarize(samples.get(c.name) ?? [])])) as Record<N, Summary>;
}

/** numerator[i] / denominator[i] for each round i (both measured in that round), summarised. */
export function ratio(numerator: readonly number[], denominator: readonly number[]): Summary {
  if (numerator.length !== denominator.length || numerator.length === 0) {
    throw new Error(
      `a ratio per round needs as many samples on each side (${numerator.length} vs ${denominator.length})`,
    );
  }
  return summarize(numerator.map((n, i) => n / (denominator[i] as number)));
}

export interface FormatOptions {
  /** Decimal places (default 0). */
  digits?: number;
  /** Written right after the median: "x", " ms", "%". */
  unit?: string;
}

/** "1.03x (0.98-1.07, n=3)": the median, then the smallest and largest sample. */
export function formatSummary(s: Summary, { digits = 0, unit = '' }: FormatOptions = {}): string {
  const f = (x: number) => x.toFixed(digits);
  // A dash after a negative number reads as a minus sign.
  const between = s.min < 0 ? ' to ' : '-';
  return `${f(s.median)}${unit} (${f(s.min)}${between}${f(s.max)}, n=${s.samples.length})`;
}
