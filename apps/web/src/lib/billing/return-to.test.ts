import { describe, expect, it } from 'vitest';
import { clearReturnTo, RETURN_TO_KEY, readReturnTo, saveReturnTo } from './return-to';
import { memorySessionStore } from './session-store';

describe('returnTo', () => {
  it('keeps the page the checkout started from until cleared', () => {
    const store = memorySessionStore();
    saveReturnTo('/dashboard/convert?loraId=abc', store);
    expect(store.items.get(RETURN_TO_KEY)).toBe('/dashboard/convert?loraId=abc');
    expect(readReturnTo(store)).toBe('/dashboard/convert?loraId=abc');
    clearReturnTo(store);
    expect(readReturnTo(store)).toBeNull();
  });

  it('forgets an older page when a checkout starts without one', () => {
    const store = memorySessionStore();
    saveReturnTo('/dashboard/create-content', store);
    saveReturnTo(null, store);
    expect(readReturnTo(store)).toBeNull();
  });

  it('accepts only paths on this site that are not the plans pages', () => {
    const store = memorySessionStore();
    for (const path of ['https://evil.example/', '//evil.example', '/dashboard/plans', '/dashboard/plans/success']) {
      saveReturnTo(path, store);
      expect(readReturnTo(store)).toBeNull();
    }
  });

  it('does nothing without a store', () => {
    expect(() => saveReturnTo('/dashboard', null)).not.toThrow();
    expect(readReturnTo(null)).toBeNull();
  });
});
