import { describe, expect, it } from 'vitest';
import { billingAvailability } from './billing-availability';

describe('billingAvailability', () => {
  it('hides buying on a server without payments', () => {
    expect(billingAvailability({ data: { provider: 'none', testMode: false }, isError: false })).toEqual({
      kind: 'none',
    });
  });

  it('sells through stripe or the offline provider, saying when no card is charged', () => {
    expect(billingAvailability({ data: { provider: 'stripe', testMode: false }, isError: false })).toEqual({
      kind: 'selling',
      testMode: false,
    });
    expect(billingAvailability({ data: { provider: 'offline', testMode: true }, isError: false })).toEqual({
      kind: 'selling',
      testMode: true,
    });
  });

  it('waits while the answer is on its way and still sells when it failed', () => {
    expect(billingAvailability({ isError: false })).toEqual({ kind: 'loading' });
    expect(billingAvailability({ isError: true })).toEqual({ kind: 'selling', testMode: false });
  });
});
