import { describe, expect, it } from 'vitest';
import { cardActions, mayToggleVisibility } from './card-actions';

describe('cardActions', () => {
  it('offers the actions each status allows', () => {
    expect(cardActions('ready')).toEqual(['wake']);
    expect(cardActions('active')).toEqual(['sleep', 'convert']);
    expect(cardActions('training')).toEqual(['progress']);
    expect(cardActions('pending')).toEqual(['progress']);
    expect(cardActions('activating')).toEqual([]);
    expect(cardActions('failed')).toEqual([]);
  });
});

describe('mayToggleVisibility', () => {
  it('offers Make Public only for a ready or awake Voice, and Make Private always', () => {
    expect(mayToggleVisibility({ status: 'ready', isPublic: false })).toBe(true);
    expect(mayToggleVisibility({ status: 'active', isPublic: false })).toBe(true);
    expect(mayToggleVisibility({ status: 'training', isPublic: false })).toBe(false);
    expect(mayToggleVisibility({ status: 'failed', isPublic: false })).toBe(false);
    expect(mayToggleVisibility({ status: 'training', isPublic: true })).toBe(true);
  });
});
