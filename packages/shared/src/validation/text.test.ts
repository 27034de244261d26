import { describe, expect, it } from 'vitest';
import { countWrittenChars } from './text.js';

describe('countWrittenChars', () => {
  it('counts code points, a run of whitespace as one, and nothing at either end', () => {
    expect(countWrittenChars('One two.')).toBe(8);
    expect(countWrittenChars('One  \t two.\n\n\nThree')).toBe(14);
    expect(countWrittenChars('  😀 é  ')).toBe(3);
    expect(countWrittenChars('')).toBe(0);
  });

  it('counts 100,000 tabs between two letters as three characters, quickly', () => {
    const started = Date.now();
    expect(countWrittenChars(`a${'\t'.repeat(100_000)}b`)).toBe(3);
    expect(countWrittenChars('\t'.repeat(100_000))).toBe(0);
    expect(countWrittenChars(`${'a \t\n'.repeat(500_000)}`)).toBe(999_999);
    expect(Date.now() - started).toBeLessThan(1_000);
  });
});
