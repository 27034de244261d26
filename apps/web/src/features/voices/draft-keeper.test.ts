import { describe, expect, it } from 'vitest';
import { draftToKeep } from './draft-keeper';

const file = new File(['Some writing.'], 'notes.md', { type: 'text/markdown' });

describe('draftToKeep', () => {
  it('keeps the person’s own input: name, text and the files themselves', () => {
    expect(draftToKeep({ ownerId: 'u1', name: 'Field notes', text: 'Text', files: [{ file, charCount: 13 }] })).toEqual(
      { ownerId: 'u1', name: 'Field notes', text: 'Text', files: [{ file, charCount: 13 }] },
    );
  });

  it('keeps nothing for an empty form or one that is nobody’s', () => {
    expect(draftToKeep({ ownerId: 'u1', name: '', text: '', files: [] })).toBeNull();
    expect(draftToKeep({ ownerId: null, name: 'x', text: 'y', files: [] })).toBeNull();
  });
});
