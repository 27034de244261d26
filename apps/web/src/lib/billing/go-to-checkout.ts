// Leaving for the payment provider's checkout: remember what the success page needs (the account
// before paying, what is bought, and the page to come back to) and the page the checkout starts
// from (a cancelled one goes back there), then hand the tab over to the checkout URL.
import type { User } from '@ownvoice/shared';
import { saveCheckoutOrigin } from './checkout-origin';
import { type Purchase, savePurchase } from './checkout-purchase';
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
  /** What this checkout (the provider's id for it) buys, for the success page; none for a trial's card. */
  purchase?: { checkoutId: string; purchase: Purchase } | undefined;
}

export interface CheckoutDeps {
  store: SessionStore | null;
  assign: (url: string) => void;
  /** The page the checkout starts from: path, query and hash. */
  here: () => string;
}

const browserDeps = (): CheckoutDeps => ({
  store: browserSessionStore(),
  assign: (url) => window.location.assign(url),
  here: () => `${window.location.pathname}${window.location.search}${window.location.hash}`,
});

export function goToCheckout(url: string, trip: CheckoutTrip, deps: CheckoutDeps = browserDeps()): void {
  if (!isSafeCheckoutUrl(url)) throw new Error('The server sent a checkout address this page will not open.');
  saveSnapshot(trip.user, deps.store);
  saveReturnTo(trip.returnTo, deps.store);
  savePurchase(trip.purchase ?? null, deps.store);
  saveCheckoutOrigin(deps.here(), deps.store);
  deps.assign(url);
}
