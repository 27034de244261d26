// The spread of a measure over paragraphs, by the bootstrap (Efron 1979): the paragraphs are drawn
// again with replacement, as many as there are, the measure is computed on each such resample,
// and the resamples' figures give its median and a 90% interval (the 5th and 95th percentiles).
// One helper for every measure of the harness, so they all say "how much would this figure move
// with other paragraphs of the same kind" the same way:
//   content recall or similarity   items: per-paragraph figures; statistic: their mean
//   attribution                    items: per-rewrite attributions; statistic: share to the author
//   Burrows' Delta                 items: per-rewrite profiles; statistic: Delta of them pooled
//   perplexity ratio               items: paired per-paragraph perplexities; statistic: the ratio
// The resamples are drawn from a seeded generator: the same paragraphs give the same spread.
import { seededRandom } from '../seeded-random.js';
import { quantile } from './quantiles.js';

export interface BootstrapSpread {
  /** The statistic on all the items, as they are. */
  all: number;
  /** The median of the statistic over the resamples. */
  median: number;
  /** The lower end of the interval: the (1 - level) / 2 quantile of the resamples (5th percentile). */
  low: number;
  /** The upper end: the (1 + level) / 2 quantile (95th percentile). */
  high: number;
  /** The share of resamples the interval holds (0.9). */
  level: number;
  /** Items (paragraphs) resampled. */
  n: number;
  resamples: number;
}

export interface BootstrapOptions {
  /** Resamples drawn: 1,000 keep a 90% interval's ends steady to about a hundredth of its width. */
  resamples?: number;
  seed?: number;
  /** The interval's coverage, 0..1. */
  level?: number;
}

/** The statistic's spread over resamples of `items`; throws RangeError without items. */
export function bootstrap<T>(
  items: readonly T[],
  statistic: (sample: readonly T[]) => number,
  options: BootstrapOptions = {},
): BootstrapSpread {
  const { resamples = 1000, seed = 0, level = 0.9 } = options;
  if (!items.length) throw new RangeError('the bootstrap needs at least one item');
  if (!(level > 0 && level < 1)) throw new RangeError(`the interval's level is between 0 and 1, got ${level}`);
  const rand = seededRandom(seed);
  const figures: number[] = [];
  for (let r = 0; r < resamples; r++) {
    figures.push(statistic(items.map(() => items[Math.floor(rand() * items.length)] as T)));
  }
  return {
    all: statistic(items),
    median: quantile(figures, 0.5),
    low: quantile(figures, (1 - level) / 2),
    high: quantile(figures, (1 + level) / 2),
    level,
    n: items.length,
    resamples,
  };
}

/** The mean of numbers, the statistic of most per-paragraph measures. */
export const mean = (values: readonly number[]): number => values.reduce((s, v) => s + v, 0) / values.length;
