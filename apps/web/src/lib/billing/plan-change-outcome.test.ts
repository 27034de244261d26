import { describe, expect, it } from 'vitest';
import { planChangeOutcome } from './plan-change-outcome';

describe('planChangeOutcome', () => {
  it('goes to the checkout for a first subscription', () => {
    expect(
      planChangeOutcome({ mode: 'checkout', id: 'cs_1', action: 'checkout', url: 'https://pay/x', effectiveAt: null }),
    ).toEqual({ kind: 'checkout', url: 'https://pay/x' });
    expect(() =>
      planChangeOutcome({ mode: 'checkout', id: 'cs_1', action: 'checkout', url: null, effectiveAt: null }),
    ).toThrow();
  });

  it('reports an upgrade and a scheduled downgrade with its date', () => {
    expect(
      planChangeOutcome({ mode: 'subscription', id: 'sub_1', action: 'upgraded', url: null, effectiveAt: null }),
    ).toEqual({ kind: 'upgraded' });
    expect(
      planChangeOutcome({
        mode: 'subscription',
        id: 'sub_1',
        action: 'downgrade_scheduled',
        url: null,
        effectiveAt: '2026-05-01T00:00:00.000Z',
      }),
    ).toEqual({ kind: 'scheduled', effectiveAt: '2026-05-01T00:00:00.000Z' });
  });
});
