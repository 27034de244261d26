// The page a checkout was started from (the plans page, the onboarding plans, the pay-later page,
// a page whose purchase window bought a pack), kept in the tab while the person is at the payment
// provider: a cancelled checkout goes back there, to the form it came from.
import { PATHS, safeRedirectTarget } from '../paths';
import { browserSessionStore, type SessionStore } from './session-store';

export const ORIGIN_KEY = 'ownvoice.checkout.origin';

/** Signed-in pages only, and never the payment pages a checkout returns to. */
function isFormPage(path: string): boolean {
  const pathname = path.split(/[?#]/, 1)[0] ?? '';
  if (pathname === PATHS.plansSuccess || pathname === PATHS.plansCancel) return false;
  return pathname.startsWith('/dashboard') || pathname.startsWith('/onboarding') || pathname.startsWith('/admin');
}

export function saveCheckoutOrigin(path: string | null, store: SessionStore | null = browserSessionStore()): void {
  if (!store) return;
  const safe = safeRedirectTarget(path);
  if (safe !== null && isFormPage(safe)) store.setItem(ORIGIN_KEY, safe);
  else store.removeItem(ORIGIN_KEY);
}

/** The page the last checkout left from, or null when none is known. */
export function readCheckoutOrigin(store: SessionStore | null = browserSessionStore()): string | null {
  const path = safeRedirectTarget(store?.getItem(ORIGIN_KEY));
  return path !== null && isFormPage(path) ? path : null;
}

export function clearCheckoutOrigin(store: SessionStore | null = browserSessionStore()): void {
  store?.removeItem(ORIGIN_KEY);
}
