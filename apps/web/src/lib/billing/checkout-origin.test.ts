import { describe, expect, it } from 'vitest';
import { clearCheckoutOrigin, readCheckoutOrigin, saveCheckoutOrigin } from './checkout-origin';
import { memorySessionStore } from './session-store';

describe('the checkout origin', () => {
  it('keeps the signed-in page a checkout left from, query and hash included', () => {
    const store = memorySessionStore();
    for (const path of ['/dashboard/plans#topups', '/onboarding/plans', '/dashboard/convert?loraId=abc']) {
      saveCheckoutOrigin(path, store);
      expect(readCheckoutOrigin(store)).toBe(path);
    }
    clearCheckoutOrigin(store);
    expect(readCheckoutOrigin(store)).toBeNull();
  });

  it('refuses other sites, public pages and the payment return pages', () => {
    const store = memorySessionStore();
    for (const path of [
      'https://evil.example/',
      '//evil.example',
      '/auth?tab=register',
      '/dashboard/plans/cancel',
      null,
    ]) {
      saveCheckoutOrigin('/dashboard/plans', store);
      saveCheckoutOrigin(path, store);
      expect(readCheckoutOrigin(store)).toBeNull();
    }
  });
});
