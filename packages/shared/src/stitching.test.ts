import { describe, expect, it } from 'vitest';
import { clampSpans, separatorsOf, stitch } from './stitching.js';

describe('separatorsOf', () => {
  it('keeps the text before, between and after the positions', () => {
    const text = '  A.\n\nB.\tC.\n';
    const positions = [
      { start: 2, end: 4 },
      { start: 6, end: 8 },
      { start: 9, end: 11 },
    ];
    expect(separatorsOf(text, positions)).toEqual(['  ', '\n\n', '\t', '\n']);
    expect(stitch(['A.', 'B.', 'C.'], separatorsOf(text, positions))).toBe(text);
  });

  it('gives the whole text as the one separator when there are no positions', () => {
    expect(separatorsOf('', [])).toEqual(['']);
    expect(separatorsOf(' \n', [])).toEqual([' \n']);
  });

  it('clamps overlapping or out-of-range positions', () => {
    const positions = [
      { start: 1, end: 4 },
      { start: 2, end: 99 },
    ];
    expect(clampSpans('abcdef', positions)).toEqual([
      { start: 1, end: 4 },
      { start: 4, end: 6 },
    ]);
    expect(separatorsOf('abcdef', positions)).toEqual(['a', '', '']);
  });
});

describe('stitch', () => {
  it('leaves out a missing piece with the separator before it', () => {
    expect(stitch(['a', null, 'c'], ['<', '|1|', '|2|', '>'])).toBe('<a|2|c>');
    expect(stitch([null, 'b', 'c'], ['<', '|1|', '|2|', '>'])).toBe('<b|2|c>');
    expect(stitch(['a', 'b', null], ['<', '|1|', '|2|', '>'], { final: false })).toBe('<a|1|b');
  });

  it('adds the text after the last chunk only once the output is final', () => {
    expect(stitch(['a', 'b'], ['<', '|', '>'], { final: true })).toBe('<a|b>');
    expect(stitch(['a', 'b'], ['<', '|', '>'], { final: false })).toBe('<a|b');
  });

  it('handles no chunks at all', () => {
    expect(stitch([], ['only'], { final: true })).toBe('only');
    expect(stitch([], [], { final: false })).toBe('');
  });

  it('refuses separators that do not fit the chunks', () => {
    expect(() => stitch(['a'], ['<', '|', '>'])).toThrow(RangeError);
    expect(() => stitch(['a', 'b'], ['<'])).toThrow(RangeError);
  });
});
