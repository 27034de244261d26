import { describe, expect, it } from 'vitest';
import type { KeyValueStorage } from './browser-storage';
import { dismissTour, isTourDismissed, tourDismissalKey } from './tour-dismissals';

function memoryStorage(): KeyValueStorage {
  const map = new Map<string, string>();
  return {
    getItem: (key) => map.get(key) ?? null,
    setItem: (key, value) => void map.set(key, value),
    removeItem: (key) => void map.delete(key),
  };
}

describe('tour dismissals', () => {
  it('keeps a closed tour closed for that user, tour and step only', () => {
    const storage = memoryStorage();
    const key = tourDismissalKey('u1', 'dashboard', 'training_started');
    expect(isTourDismissed(storage, key)).toBe(false);
    dismissTour(storage, key);
    expect(isTourDismissed(storage, key)).toBe(true);
    expect(isTourDismissed(storage, tourDismissalKey('u1', 'dashboard', 'rephrasing_tour_complete'))).toBe(false);
    expect(isTourDismissed(storage, tourDismissalKey('u2', 'dashboard', 'training_started'))).toBe(false);
    expect(isTourDismissed(storage, tourDismissalKey('u1', 'convert', 'training_started'))).toBe(false);
  });

  it('shows tours where the browser keeps nothing', () => {
    const key = tourDismissalKey('u1', 'create', 'training_started');
    dismissTour(null, key);
    expect(isTourDismissed(null, key)).toBe(false);
  });
});
