import { describe, expect, it } from 'vitest';
import { optionOf } from './select-option';

describe('optionOf', () => {
  it('reads select values back as their options', () => {
    const cycles = ['monthly', 'annual'] as const;
    expect(optionOf(cycles, 'annual')).toBe('annual');
    expect(optionOf(cycles, '')).toBeNull();
    expect(optionOf(cycles, null)).toBeNull();
    expect(optionOf(cycles, 'weekly')).toBeNull();
  });
});
