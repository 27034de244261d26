import { describe, expect, it } from 'vitest';
import { testUser } from '../test-user';
import { planCardAction } from './plan-card-action';

const onPro = (billingCycle: 'monthly' | 'annual') =>
  testUser({ plan: { name: 'pro', billingCycle }, subscription: { status: 'active', stripeSubscriptionId: 'sub_1' } });

describe('planCardAction', () => {
  it('disables the card of the current plan and cycle only', () => {
    expect(planCardAction(onPro('monthly'), { plan: 'pro', billingCycle: 'monthly' })).toEqual({
      kind: 'current',
      label: 'Current plan',
      disabled: true,
    });
    expect(planCardAction(onPro('monthly'), { plan: 'pro', billingCycle: 'annual' })).toMatchObject({
      label: 'Upgrade',
      disabled: false,
    });
  });

  it('labels other tiers by the tier first', () => {
    expect(planCardAction(onPro('annual'), { plan: 'virtuoso', billingCycle: 'monthly' }).label).toBe('Upgrade');
    expect(planCardAction(onPro('monthly'), { plan: 'minimum', billingCycle: 'annual' }).label).toBe('Downgrade');
    expect(planCardAction(onPro('annual'), { plan: 'pro', billingCycle: 'monthly' }).label).toBe('Downgrade');
  });

  it('offers Subscribe to someone on the trial or no plan', () => {
    for (const name of ['trial', 'none'] as const) {
      expect(planCardAction(testUser({ plan: { name } }), { plan: 'minimum', billingCycle: 'monthly' })).toEqual({
        kind: 'subscribe',
        label: 'Subscribe',
        disabled: false,
      });
    }
  });

  it('disables a downgrade that is already scheduled', () => {
    const user = testUser({
      plan: { name: 'pro', billingCycle: 'monthly' },
      subscription: {
        stripeSubscriptionId: 'sub_1',
        pendingChange: { plan: 'minimum', billingCycle: 'monthly', effectiveAt: null, applyForSubscriptionId: 'sub_1' },
      },
    });
    expect(planCardAction(user, { plan: 'minimum', billingCycle: 'monthly' })).toMatchObject({
      label: 'Scheduled',
      disabled: true,
    });
    expect(planCardAction(user, { plan: 'minimum', billingCycle: 'annual' }).label).toBe('Downgrade');
  });
});
