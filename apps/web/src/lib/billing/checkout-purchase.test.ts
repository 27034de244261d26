import { describe, expect, it } from 'vitest';
import {
  clearPurchase,
  PURCHASE_KEY,
  type Purchase,
  purchaseWords,
  readPurchase,
  savePurchase,
} from './checkout-purchase';
import { memorySessionStore } from './session-store';

describe('purchaseWords', () => {
  it('names a plan, its cycle and its price, with the pay-now discount', () => {
    expect(purchaseWords({ kind: 'plan', plan: 'pro', billingCycle: 'monthly', payNow: false })).toEqual({
      item: 'Pro plan, billed monthly',
      amount: '$36.99 a month',
      note: null,
    });
    expect(purchaseWords({ kind: 'plan', plan: 'minimum', billingCycle: 'monthly', payNow: true })).toEqual({
      item: 'Minimum plan, billed monthly',
      amount: '$7.64 a month',
      note: '15% off for life',
    });
    expect(purchaseWords({ kind: 'plan', plan: 'minimum', billingCycle: 'annual', payNow: false }).amount).toMatch(
      /^\$[\d,.]+ a year$/,
    );
  });

  it('names the packs and what they cost together', () => {
    expect(purchaseWords({ kind: 'packs', packs: ['extra_chunk_edits'] })).toEqual({
      item: '+100 Proofreads',
      amount: '$4.99',
      note: null,
    });
    expect(purchaseWords({ kind: 'packs', packs: ['extra_storage_slots', 'extra_model'] }).amount).toBe('$23.98');
  });
});

describe('the kept purchase', () => {
  const purchase: Purchase = { kind: 'packs', packs: ['extra_model'] };

  it('is read back only for the checkout it belongs to', () => {
    const store = memorySessionStore();
    savePurchase({ checkoutId: 'cs_1', purchase }, store);
    expect(readPurchase('cs_1', store)).toEqual(purchase);
    expect(readPurchase('cs_2', store)).toBeNull();
    expect(readPurchase(null, store)).toBeNull();
    clearPurchase(store);
    expect(readPurchase('cs_1', store)).toBeNull();
  });

  it('ignores what it cannot read', () => {
    const store = memorySessionStore();
    for (const raw of ['not json', '{"checkoutId":"cs_1","purchase":{"kind":"packs","packs":["free_money"]}}']) {
      store.setItem(PURCHASE_KEY, raw);
      expect(readPurchase('cs_1', store)).toBeNull();
    }
  });
});
