import { describe, expect, it } from 'vitest';
import { BILLING_CYCLES } from '../constants.js';
import { PAID_PLAN_NAMES } from './catalog.js';
import { classifyPlanChange, PLAN_CHANGE_EFFECT, planTier } from './plan-change.js';

describe('planTier', () => {
  it('orders minimum 1, pro 2, virtuoso 3', () => {
    expect(PAID_PLAN_NAMES.map(planTier)).toEqual([1, 2, 3]);
  });
});

describe('classifyPlanChange', () => {
  it('marks the plan and cycle the person has as current', () => {
    expect(classifyPlanChange({ plan: 'pro', billingCycle: 'annual' }, { plan: 'pro', billingCycle: 'annual' })).toBe(
      'current',
    );
  });

  it('makes a higher tier an upgrade and a lower tier a downgrade', () => {
    expect(
      classifyPlanChange({ plan: 'minimum', billingCycle: 'monthly' }, { plan: 'pro', billingCycle: 'monthly' }),
    ).toBe('upgrade');
    expect(
      classifyPlanChange({ plan: 'virtuoso', billingCycle: 'annual' }, { plan: 'minimum', billingCycle: 'annual' }),
    ).toBe('downgrade');
  });

  it('makes monthly → annual on the same plan an upgrade, and annual → monthly a downgrade', () => {
    expect(classifyPlanChange({ plan: 'pro', billingCycle: 'monthly' }, { plan: 'pro', billingCycle: 'annual' })).toBe(
      'upgrade',
    );
    expect(classifyPlanChange({ plan: 'pro', billingCycle: 'annual' }, { plan: 'pro', billingCycle: 'monthly' })).toBe(
      'downgrade',
    );
  });

  it('lets the tier decide when tier and cycle move in opposite directions', () => {
    expect(
      classifyPlanChange({ plan: 'pro', billingCycle: 'annual' }, { plan: 'virtuoso', billingCycle: 'monthly' }),
    ).toBe('upgrade');
    expect(
      classifyPlanChange({ plan: 'virtuoso', billingCycle: 'monthly' }, { plan: 'pro', billingCycle: 'annual' }),
    ).toBe('downgrade');
  });

  it('treats anyone without a paid plan as subscribing, and a paid plan without a cycle as monthly', () => {
    for (const plan of ['trial', 'none'] as const) {
      for (const target of PAID_PLAN_NAMES) {
        expect(classifyPlanChange({ plan, billingCycle: null }, { plan: target, billingCycle: 'annual' })).toBe(
          'subscribe',
        );
      }
    }
    expect(classifyPlanChange({ plan: 'pro', billingCycle: null }, { plan: 'pro', billingCycle: 'monthly' })).toBe(
      'current',
    );
  });

  it('is antisymmetric: going back is the opposite kind, for every pair', () => {
    const opposite = { current: 'current', upgrade: 'downgrade', downgrade: 'upgrade' } as const;
    const selections = PAID_PLAN_NAMES.flatMap((plan) =>
      BILLING_CYCLES.map((billingCycle) => ({ plan, billingCycle })),
    );
    for (const from of selections) {
      for (const to of selections) {
        const there = classifyPlanChange(from, to);
        expect(there).not.toBe('subscribe');
        if (there === 'subscribe') continue;
        expect(classifyPlanChange(to, from)).toBe(opposite[there]);
        expect(there === 'current').toBe(from.plan === to.plan && from.billingCycle === to.billingCycle);
      }
    }
  });

  it('charges an upgrade now and schedules a downgrade for the next period', () => {
    expect(PLAN_CHANGE_EFFECT).toEqual({ upgrade: 'now', downgrade: 'next_period' });
  });
});
