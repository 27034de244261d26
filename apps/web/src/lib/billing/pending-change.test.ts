import { describe, expect, it } from 'vitest';
import { testUser } from '../test-user';
import { describePendingChange, displayablePendingChange } from './pending-change';

const change = { plan: 'pro' as const, billingCycle: 'monthly' as const, effectiveAt: '2026-04-04T12:00:00.000Z' };

describe('displayablePendingChange', () => {
  it('shows a change for the current subscription or for none in particular', () => {
    const forThis = testUser({
      subscription: { stripeSubscriptionId: 'sub_1', pendingChange: { ...change, applyForSubscriptionId: 'sub_1' } },
    });
    expect(displayablePendingChange(forThis)?.plan).toBe('pro');
    const forAny = testUser({ subscription: { pendingChange: { ...change, applyForSubscriptionId: null } } });
    expect(displayablePendingChange(forAny)).not.toBeNull();
  });

  it('hides a change without a plan or for another subscription', () => {
    const noPlan = testUser({
      subscription: { pendingChange: { ...change, plan: null, applyForSubscriptionId: null } },
    });
    expect(displayablePendingChange(noPlan)).toBeNull();
    const stale = testUser({
      subscription: { stripeSubscriptionId: 'sub_2', pendingChange: { ...change, applyForSubscriptionId: 'sub_1' } },
    });
    expect(displayablePendingChange(stale)).toBeNull();
  });

  it('says what and from when', () => {
    expect(describePendingChange({ ...change, applyForSubscriptionId: null })).toBe('Pro (monthly) from Apr 4, 2026');
    expect(
      describePendingChange({ ...change, billingCycle: null, effectiveAt: null, applyForSubscriptionId: null }),
    ).toBe('Pro');
  });
});
