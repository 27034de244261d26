import { newInteractiveState } from '@ownvoice/shared';
import { describe, expect, it, vi } from 'vitest';
import type { KeyValueStorage } from '../../lib/session/browser-storage';
import { interactiveStorageKey, loadInteractiveState, saveInteractiveState } from './interactive-storage';

const VOICE = 'a'.repeat(24);

function memoryStorage(): KeyValueStorage & { map: Map<string, string> } {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

describe('interactive storage', () => {
  it('keys by user and mode', () => {
    expect(interactiveStorageKey('u1', 'long')).toBe('ownvoice.interactive.u1.long');
  });

  it('saves and loads per user and mode', () => {
    const storage = memoryStorage();
    const short = { ...newInteractiveState('short', 'A post', VOICE), step: 'awaiting_section_answers' as const };
    const long = newInteractiveState('long', 'A guide', VOICE);
    saveInteractiveState(storage, 'u1', 'short', short);
    saveInteractiveState(storage, 'u1', 'long', long);
    expect(loadInteractiveState(storage, 'u1', 'short')).toEqual(short);
    expect(loadInteractiveState(storage, 'u1', 'long')).toEqual(long);
    expect(loadInteractiveState(storage, 'u2', 'short')).toBeNull();
    saveInteractiveState(storage, 'u1', 'short', null);
    expect(loadInteractiveState(storage, 'u1', 'short')).toBeNull();
    expect(loadInteractiveState(storage, 'u1', 'long')).toEqual(long);
  });

  it('fills defaults of an older saved state that passes', () => {
    const storage = memoryStorage();
    const { history: _h, content: _c, ...partial } = newInteractiveState('short', 'A post', VOICE);
    storage.setItem(interactiveStorageKey('u1', 'short'), JSON.stringify(partial));
    expect(loadInteractiveState(storage, 'u1', 'short')).toMatchObject({ history: [], content: [] });
  });

  it('discards what does not pass: not JSON, wrong shape, another mode', () => {
    const storage = memoryStorage();
    const key = interactiveStorageKey('u1', 'short');
    storage.setItem(key, '{not json');
    expect(loadInteractiveState(storage, 'u1', 'short')).toBeNull();
    expect(storage.map.has(key)).toBe(false);

    storage.setItem(key, JSON.stringify({ ...newInteractiveState('short', 'A post', VOICE), step: 'nowhere' }));
    expect(loadInteractiveState(storage, 'u1', 'short')).toBeNull();
    storage.setItem(key, JSON.stringify({ ...newInteractiveState('short', 'A post', 'not-an-id') }));
    expect(loadInteractiveState(storage, 'u1', 'short')).toBeNull();
    storage.setItem(key, JSON.stringify(newInteractiveState('long', 'A post', VOICE)));
    expect(loadInteractiveState(storage, 'u1', 'short')).toBeNull();
    expect(storage.map.has(key)).toBe(false);
  });

  it('storage that throws is not an error', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const broken: KeyValueStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('full');
      },
      removeItem: () => {
        throw new Error('denied');
      },
    };
    expect(loadInteractiveState(broken, 'u1', 'short')).toBeNull();
    expect(() => saveInteractiveState(broken, 'u1', 'short', newInteractiveState('short', 'x', VOICE))).not.toThrow();
    warn.mockRestore();
  });
});
