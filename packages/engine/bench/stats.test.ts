import { describe, expect, it } from 'vitest';
import { formatSummary, measureInterleaved, median, ratio, summarize } from './stats.js';

describe('median and spread', () => {
  it('takes the middle sample, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(() => median([])).toThrow();
  });

  it('summarises samples without reordering them', () => {
    const s = summarize([110, 90, 100]);
    expect(s).toEqual({ samples: [110, 90, 100], median: 100, min: 90, max: 110, relativeSpread: 0.2 });
  });

  it('has no relative spread around a zero median', () => {
    expect(summarize([-1, 0, 1]).relativeSpread).toBe(0);
  });
});

describe('measureInterleaved', () => {
  it('runs the cases in turn, round after round, and keeps each case its own samples', async () => {
    const calls: string[] = [];
    const fake = <N extends string>(name: N, values: number[]) => ({
      name,
      run: async () => {
        calls.push(name);
        return values.shift() as number;
      },
    });
    const result = await measureInterleaved([fake('a', [1, 5, 3]), fake('b', [10, 30, 20]), fake('c', [7, 7, 7])], 3);
    expect(calls).toEqual(['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b', 'c']);
    expect(result.a.samples).toEqual([1, 5, 3]);
    expect(result.a.median).toBe(3);
    expect(result.b).toMatchObject({ median: 20, min: 10, max: 30 });
    expect(result.c.relativeSpread).toBe(0);
  });

  it('refuses fewer than three rounds and cases of the same name', async () => {
    const run = async () => 1;
    await expect(measureInterleaved([{ name: 'a', run }], 2)).rejects.toThrow(/3 rounds/);
    await expect(
      measureInterleaved(
        [
          { name: 'a', run },
          { name: 'a', run },
        ],
        3,
      ),
    ).rejects.toThrow(/differ/);
  });

  it('takes fewer rounds only when asked to, and never none', async () => {
    const run = async () => 4;
    const once = await measureInterleaved([{ name: 'a', run }], 1, { minRounds: 1 });
    expect(once.a).toMatchObject({ samples: [4], median: 4, relativeSpread: 0 });
    await expect(measureInterleaved([{ name: 'a', run }], 0, { minRounds: 0 })).rejects.toThrow(/1 rounds/);
  });
});

describe('ratio', () => {
  it('divides within each round, then takes the median of the ratios', () => {
    // Round 2 ran on a slow machine for both sides: its ratio is still 1.
    const r = ratio([100, 50, 110], [100, 50, 100]);
    expect(r.samples).toEqual([1, 1, 1.1]);
    expect(r.median).toBe(1);
    expect(r.max).toBeCloseTo(1.1);
  });

  it('needs a sample on each side for every round', () => {
    expect(() => ratio([1, 2, 3], [1, 2])).toThrow();
    expect(() => ratio([], [])).toThrow();
  });
});

describe('formatSummary', () => {
  it('prints the median, the range and the count', () => {
    expect(formatSummary(summarize([1.07, 0.98, 1.03]), { digits: 2, unit: 'x' })).toBe('1.03x (0.98-1.07, n=3)');
    expect(formatSummary(summarize([402.4, 398, 450]), { unit: ' ms' })).toBe('402 ms (398-450, n=3)');
  });

  it('keeps a negative range readable', () => {
    expect(formatSummary(summarize([-3.1, 1, -0.5]), { digits: 1, unit: '%' })).toBe('-0.5% (-3.1 to 1.0, n=3)');
  });
});
