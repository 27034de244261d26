import { describe, expect, it, vi } from 'vitest';
import { createStore } from './create-store';

describe('createStore', () => {
  it('tells listeners about changes only', () => {
    const store = createStore({ count: 0 });
    const listener = vi.fn();
    const unsubscribe = store.subscribe(listener);
    store.set((s) => ({ count: s.count + 1 }));
    store.set((s) => s);
    expect(store.get()).toEqual({ count: 1 });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    store.set(() => ({ count: 5 }));
    expect(listener).toHaveBeenCalledTimes(1);
  });
});
