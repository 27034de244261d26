import { describe, expect, it } from 'vitest';
import { testUser } from '../test-user';
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
      { store, assign: (url) => visited.push(url) },
    );
    expect(visited).toEqual(['https://checkout.stripe.com/x']);
    expect(readSnapshot(store)?.plan).toBe('trial');
    expect(readReturnTo(store)).toBe('/dashboard/convert');
  });

  it('forgets an older return page when this checkout has none', () => {
    const store = memorySessionStore();
    const deps = { store, assign: () => undefined };
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
        { store: null, assign: (u) => visited.push(u) },
      ),
    ).toThrow();
    expect(visited).toEqual([]);
  });
});
