import { describe, expect, it } from 'vitest';
import { contentRecall, stem } from './content-recall.js';
import { quantile, spreadOf } from './quantiles.js';
import { measureRewrites, pooledProfile } from './rewrite-measures.js';
import { functionWordProfile, StyleScale } from './stylometry.js';

const OLD =
  'And he said unto them, Go ye into the city, and there shall meet you a man bearing a pitcher of water: follow him.';
const NEW = 'The report shows that sales grew in every region except the north, where a late harvest reduced demand.';

describe('content recall', () => {
  it('counts the input’s content words the output kept, by a rough stem', () => {
    expect(stem('giveth')).toBe(stem('gives'));
    expect(contentRecall('The dog gives bones', 'the dog giveth bones')).toBe(1);
    expect(contentRecall('The dog gives bones', 'the cat sleeps')).toBe(0);
    expect(contentRecall('red apples and green pears', 'red apples')).toBe(0.5);
    expect(contentRecall('the of and', 'anything')).toBe(1);
  });
});

describe('quantiles', () => {
  it('interpolates and summarises the middle half', () => {
    expect(quantile([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(spreadOf([1, 2, 3, 4, 5])).toEqual({ median: 3, low: 2, high: 4, n: 5 });
    expect(quantile([], 0.5)).toBeNaN();
  });
});

describe('measureRewrites', () => {
  const scale = new StyleScale([OLD, NEW, `${OLD} ${OLD}`, `${NEW} ${NEW} and so on`]);

  it('pools profiles as if the texts were one', () => {
    const pooled = pooledProfile([functionWordProfile(OLD), functionWordProfile(NEW)]);
    const whole = functionWordProfile(`${OLD} ${NEW}`);
    expect(pooled.words).toBe(whole.words);
    expect(pooled.frequencies.the).toBeCloseTo(whole.frequencies.the as number, 12);
  });

  it('puts rewrites nearer the writer they resemble, with a spread around the figure', () => {
    const m = measureRewrites({ inputs: [NEW, NEW], outputs: [OLD, OLD], writers: { old: OLD, new: NEW }, scale });
    expect(m.style.old?.delta).toBeLessThan(m.style.new?.delta as number);
    expect(m.style.old?.spread.low).toBeLessThanOrEqual(m.style.old?.spread.high as number);
    expect(m.recall.median).toBeLessThan(0.2);
  });

  it('refuses unmatched inputs and outputs', () => {
    expect(() => measureRewrites({ inputs: [NEW], outputs: [], writers: {}, scale })).toThrow(RangeError);
  });
});
