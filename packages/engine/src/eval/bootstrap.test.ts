import { describe, expect, it } from 'vitest';
import { seededRandom } from '../seeded-random.js';
import { bootstrap, mean } from './bootstrap.js';
import { pooledProfile } from './rewrite-measures.js';
import { type FunctionWordProfile, functionWordProfile, StyleScale } from './stylometry.js';

describe('the bootstrap over paragraphs', () => {
  it("gives the mean's 90% interval that theory gives: about ±1.645 standard errors", () => {
    // 400 draws from a uniform 0..1: the mean's standard error is sqrt(1/12 / 400) = 0.0144.
    const rand = seededRandom(1);
    const values = Array.from({ length: 400 }, () => rand());
    const s = bootstrap(values, mean, { resamples: 2000 });
    const se = Math.sqrt(1 / 12 / 400);
    expect(s.all).toBeCloseTo(mean(values), 12);
    expect(s.median).toBeCloseTo(s.all, 2);
    expect(s.high - s.low).toBeGreaterThan(2 * 1.645 * se * 0.85);
    expect(s.high - s.low).toBeLessThan(2 * 1.645 * se * 1.15);
    expect(s).toMatchObject({ level: 0.9, n: 400, resamples: 2000 });
  });

  it('has no spread where every paragraph gives the same figure, and is the same for the same seed', () => {
    const same = bootstrap([0.8, 0.8, 0.8], mean);
    for (const figure of [same.all, same.median, same.low, same.high]) expect(figure).toBeCloseTo(0.8, 12);
    const values = [0.1, 0.5, 0.9, 0.3];
    expect(bootstrap(values, mean, { seed: 4 })).toEqual(bootstrap(values, mean, { seed: 4 }));
    expect(bootstrap(values, mean, { seed: 4 })).not.toEqual(bootstrap(values, mean, { seed: 5 }));
  });

  it('resamples whole items, so a pooled measure such as Delta gets its spread too', () => {
    const texts = [
      'And he said unto them, Go ye into the city, and there shall meet you a man.',
      'Thou shalt not go unto the hill, for the Lord hath spoken it unto thee.',
      'The report shows that sales grew in every region except the north.',
      'Check that your server meets the minimum requirements before you install it.',
    ];
    const profiles = texts.map(functionWordProfile);
    const scale = new StyleScale(profiles);
    const writer = profiles[0] as FunctionWordProfile;
    const delta = (sample: readonly FunctionWordProfile[]) => scale.delta(pooledProfile(sample), writer);
    const s = bootstrap(profiles, delta, { resamples: 300 });
    expect(s.all).toBeCloseTo(delta(profiles), 12);
    expect(s.low).toBeLessThanOrEqual(s.median);
    expect(s.median).toBeLessThanOrEqual(s.high);
    expect(s.high).toBeGreaterThan(s.low);
  });

  it('refuses no items and a level outside 0..1', () => {
    expect(() => bootstrap([], mean)).toThrow(RangeError);
    expect(() => bootstrap([1], mean, { level: 1 })).toThrow(RangeError);
  });
});
