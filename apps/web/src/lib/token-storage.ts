// The session token lives in localStorage so a reload keeps the user signed in.
// Access is guarded because storage can be missing (tests in Node) or blocked (privacy modes).

export const TOKEN_STORAGE_KEY = 'ownvoice.token';

function storage(): Storage | undefined {
  try {
    return typeof localStorage === 'undefined' ? undefined : localStorage;
  } catch {
    return undefined;
  }
}

export function readToken(): string | null {
  return storage()?.getItem(TOKEN_STORAGE_KEY) ?? null;
}

export function writeToken(token: string): void {
  storage()?.setItem(TOKEN_STORAGE_KEY, token);
}

export function clearToken(): void {
  storage()?.removeItem(TOKEN_STORAGE_KEY);
}
