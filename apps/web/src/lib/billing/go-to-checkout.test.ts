import { describe, expect, it } from 'vitest';
import { testUser } from '../test-user';
import { readCheckoutOrigin } from './checkout-origin';
import { type Purchase, readPurchase } from './checkout-purchase';
import { goToCheckout, isSafeCheckoutUrl } from './go-to-checkout';
import { readSnapshot } from './payment-confirmation';
import { readReturnTo } from './return-to';
import { memorySessionStore } from './session-store';

describe('isSafeCheckoutUrl', () => {
  it("opens the provider's page or one on this site", () => {
    expect(isSafeCheckoutUrl('https://checkout.stripe.com/c/pay/cs_test_1')).toBe(true);
    expect(isSafeCheckoutUrl('/api/offline-checkout/cs_1')).toBe(true);
  });

  it('refuses scripts, other schemes and protocol-relative addresses', () => {
    for (const url of ['javascript:alert(1)', 'data:text/html,x', '//evil.example/', '/\\evil.example', 'nonsense']) {
      expect(isSafeCheckoutUrl(url)).toBe(false);
    }
  });
});

describe('goToCheckout', () => {
  it('remembers the account and the page to return to, then goes', () => {
    const store = memorySessionStore();
    const visited: string[] = [];
    const user = testUser({ plan: { name: 'trial' } });
    goToCheckout(
      'https://checkout.stripe.com/x',
      { user, returnTo: '/dashboard/convert' },
      { store, assign: (url) => visited.push(url), here: () => '/dashboard/convert?loraId=1' },
    );
    expect(visited).toEqual(['https://checkout.stripe.com/x']);
    expect(readSnapshot(store)?.plan).toBe('trial');
    expect(readReturnTo(store)).toBe('/dashboard/convert');
  });

  it('remembers what the checkout buys and the page it leaves from', () => {
    const store = memorySessionStore();
    const deps = { store, assign: () => undefined, here: () => '/onboarding/plans' };
    const purchase: Purchase = { kind: 'packs', packs: ['extra_chunk_edits'] };
    goToCheckout('/checkout/1', { user: null, returnTo: null, purchase: { checkoutId: 'cs_1', purchase } }, deps);
    expect(readPurchase('cs_1', store)).toEqual(purchase);
    expect(readCheckoutOrigin(store)).toBe('/onboarding/plans');
    // The next checkout, of a card for the trial, buys nothing: the older purchase is forgotten.
    goToCheckout('/checkout/2', { user: null, returnTo: null }, deps);
    expect(readPurchase('cs_1', store)).toBeNull();
  });

  it('forgets an older return page when this checkout has none', () => {
    const store = memorySessionStore();
    const deps = { store, assign: () => undefined, here: () => '/dashboard/plans' };
    goToCheckout('/checkout/1', { user: null, returnTo: '/dashboard/convert' }, deps);
    goToCheckout('/checkout/2', { user: null, returnTo: null }, deps);
    expect(readReturnTo(store)).toBeNull();
  });

  it('does not leave for an address it refuses', () => {
    const visited: string[] = [];
    expect(() =>
      goToCheckout(
        'javascript:alert(1)',
        { user: null, returnTo: null },
        { store: null, assign: (u) => visited.push(u), here: () => '/dashboard/plans' },
      ),
    ).toThrow();
    expect(visited).toEqual([]);
  });
});
