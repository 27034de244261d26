// A minimal external store for state that must outlive the component that changed it (a form's
// draft across a navigation, a modal raised from a plain function), read with useSyncExternalStore.
import { useSyncExternalStore } from 'react';

export interface Store<T> {
  get(): T;
  /** Replaces the state with what `update` returns; listeners hear of it only when it changed. */
  set(update: (current: T) => T): void;
  subscribe(listener: () => void): () => void;
}

/** Every store made, each able to go back to its first state: what `resetStores` does. */
const resets: (() => void)[] = [];

export function createStore<T>(initial: T): Store<T> {
  let state = initial;
  const listeners = new Set<() => void>();
  const store: Store<T> = {
    get: () => state,
    set(update) {
      const next = update(state);
      if (Object.is(next, state)) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
  };
  resets.push(() => store.set(() => initial));
  return store;
}

/**
 * Puts every store back to its first state, as a fresh page load would find it. The page tests
 * call it after each test (test/render.tsx): their files share one module graph, so a draft left
 * in a store by one file would otherwise be found by the next.
 */
export function resetStores(): void {
  for (const reset of resets) reset();
}

/** The store's current state, re-rendering the caller when it changes. */
export function useStore<T>(store: Store<T>): T {
  return useSyncExternalStore(store.subscribe, store.get);
}
