// The page a pack was bought from in the purchase modal: kept in the tab while the person is at the
// payment provider, so the success page can offer to continue there.
import { PATHS, safeRedirectTarget } from '../paths';
import { browserSessionStore, type SessionStore } from './session-store';

export const RETURN_TO_KEY = 'ownvoice.checkout.returnTo';

/** Remembers `path` for the next checkout, or forgets an older one when there is none. */
export function saveReturnTo(path: string | null, store: SessionStore | null = browserSessionStore()): void {
  if (!store) return;
  if (path === null) store.removeItem(RETURN_TO_KEY);
  else store.setItem(RETURN_TO_KEY, path);
}

/** The page to continue on: a path on this site, never the payment pages themselves. */
export function readReturnTo(store: SessionStore | null = browserSessionStore()): string | null {
  const path = safeRedirectTarget(store?.getItem(RETURN_TO_KEY));
  if (path === null || path === PATHS.plans || path.startsWith(`${PATHS.plans}/`)) return null;
  return path;
}

export function clearReturnTo(store: SessionStore | null = browserSessionStore()): void {
  store?.removeItem(RETURN_TO_KEY);
}
