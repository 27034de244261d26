// Leaving for the payment provider's checkout: remember what the success page needs (the account
// before paying, and the page to come back to), then hand the tab over to the checkout URL.
import type { User } from '@ownvoice/shared';
import { saveSnapshot } from './payment-confirmation';
import { saveReturnTo } from './return-to';
import { browserSessionStore, type SessionStore } from './session-store';

/** The provider's hosted page (https), or the offline provider's page on this site. */
export function isSafeCheckoutUrl(url: string): boolean {
  if (url.startsWith('/')) return !url.startsWith('//') && !url.startsWith('/\\');
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

export interface CheckoutTrip {
  /** The account now, so the success page can tell when the payment has arrived. */
  user: User | null;
  /** The page to offer coming back to (a pack bought from the purchase modal); null for none. */
  returnTo: string | null;
}

export interface CheckoutDeps {
  store: SessionStore | null;
  assign: (url: string) => void;
}

const browserDeps = (): CheckoutDeps => ({
  store: browserSessionStore(),
  assign: (url) => window.location.assign(url),
});

export function goToCheckout(url: string, trip: CheckoutTrip, deps: CheckoutDeps = browserDeps()): void {
  if (!isSafeCheckoutUrl(url)) throw new Error('The server sent a checkout address this page will not open.');
  saveSnapshot(trip.user, deps.store);
  saveReturnTo(trip.returnTo, deps.store);
  deps.assign(url);
}
