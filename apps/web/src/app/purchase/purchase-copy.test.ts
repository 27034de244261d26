import { describe, expect, it } from 'vitest';
import { purchaseCopy } from './purchase-copy';

describe('purchaseCopy', () => {
  it('names the resource that ran out', () => {
    expect(purchaseCopy({ kind: 'limit', resource: 'activationHours' }).title).toBe('No Voice waking hours left');
    expect(purchaseCopy({ kind: 'limit', resource: 'storageSlots' }).body).toContain('Voice storage slots');
    expect(purchaseCopy({ kind: 'limit', resource: 'modelsTrained' }).title).toBe('No trainable Voices left');
  });

  it('falls back to a general line when the resource is unknown', () => {
    expect(purchaseCopy({ kind: 'limit', resource: null }).title).toBe('You have reached a usage limit');
  });

  it('says how many credits were required when the server said', () => {
    expect(purchaseCopy({ kind: 'credits', required: 1500 }).body).toContain('1,500 credits');
    expect(purchaseCopy({ kind: 'credits', required: null }).body).not.toContain('needs');
  });
});

describe('purchaseCopy for an action that lacks several things', () => {
  it('names every one, and says one checkout buys them', () => {
    const copy = purchaseCopy({ kind: 'limit', resource: 'storageSlots', also: ['modelsTrained'] });
    expect(copy.title).toBe('This needs Voice storage slots and trainable Voices');
    expect(copy.body).toContain('One checkout below buys everything it needs');
  });
});
