// The browser's local storage for what a page keeps per user (an interactive session, the tours
// a person closed), or null where it cannot be reached (private modes, tests).
export type KeyValueStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

export function browserStorage(): KeyValueStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}
