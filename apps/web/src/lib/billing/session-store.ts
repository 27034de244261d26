// What a checkout remembers across the trip to the payment provider: the tab's sessionStorage,
// or nothing where it cannot be used (storage disabled, tests without a browser).
export type SessionStore = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function browserSessionStore(): SessionStore | null {
  try {
    return typeof window === 'undefined' ? null : window.sessionStorage;
  } catch {
    return null;
  }
}

/** A store in memory, for tests. */
export function memorySessionStore(): SessionStore & { items: Map<string, string> } {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => {
      items.set(key, value);
    },
    removeItem: (key) => {
      items.delete(key);
    },
  };
}
