import { describe, expect, it } from 'vitest';
import { createFormError, referenceFileError } from './form';

const VOICE = 'c'.repeat(24);

describe('createFormError', () => {
  it('needs a Voice, then a prompt within the limit', () => {
    expect(createFormError({ loraId: null, prompt: 'x' })).toBe('Please select a Voice');
    expect(createFormError({ loraId: 'short', prompt: 'x' })).toBe('Please select a Voice');
    expect(createFormError({ loraId: VOICE, prompt: '  ' })).toBe('Please enter a prompt');
    expect(createFormError({ loraId: VOICE, prompt: 'x'.repeat(4001) })).toBe(
      'The prompt can be at most 4,000 characters',
    );
    expect(createFormError({ loraId: VOICE, prompt: 'Write a post' })).toBeNull();
  });

  it('checks the reference file type and size', () => {
    expect(referenceFileError({ name: 'notes.md', size: 10 })).toBeNull();
    expect(referenceFileError({ name: 'image.png', size: 10 })).toMatch(/^Invalid file types: image.png/);
    expect(referenceFileError({ name: 'big.pdf', size: 11 * 1024 * 1024 })).toBe(
      'Files too large: big.pdf. Maximum size per file: 10 MB',
    );
    expect(createFormError({ loraId: VOICE, prompt: 'x', referenceFile: new File(['x'], 'a.exe') })).toMatch(
      /^Invalid file types/,
    );
  });
});
