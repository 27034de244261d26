import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import { onboardingPlanButton, PAY_NOW_UNAVAILABLE_NOTE, payNowOffer } from './pay-now-offer';

const monthlyPro = { plan: 'pro', billingCycle: 'monthly' } as const;

describe('payNowOffer', () => {
  it('offers the discount to a new account and to a visitor who would sign up', () => {
    for (const user of [null, testUser({ plan: { payNowAvailable: true } })]) {
      const offer = payNowOffer(user);
      expect(offer).toMatchObject({ discounted: true, title: 'Pay now and save 15% for life', note: null });
    }
  });

  it('shows list prices, and says why, once the discount cannot be had', () => {
    const afterTrial = testUser({ plan: { name: 'trial', payNowAvailable: false } });
    expect(payNowOffer(afterTrial)).toEqual({
      discounted: false,
      title: 'Choose a plan',
      intro: 'Pick a plan, monthly or annually.',
      note: PAY_NOW_UNAVAILABLE_NOTE,
    });
    // An unpaid plan after the trial, or a plan that ended, counts as having had one.
    expect(payNowOffer(testUser({ plan: { name: 'none', payNowAvailable: false } })).discounted).toBe(false);
  });
});

describe('onboardingPlanButton', () => {
  it('asks a visitor to sign up first', () => {
    expect(onboardingPlanButton(null, monthlyPro)).toEqual({ kind: 'register' });
  });

  it('buys a first plan here', () => {
    expect(onboardingPlanButton(testUser(), monthlyPro)).toEqual({ kind: 'buy', label: 'Subscribe', disabled: false });
    const onTrial = testUser({ plan: { name: 'trial', payNowAvailable: false } });
    expect(onboardingPlanButton(onTrial, monthlyPro).kind).toBe('buy');
  });

  it('sends a change of a running plan to the plans page, where it is confirmed', () => {
    const onMinimum = testUser({ plan: { name: 'minimum', billingCycle: 'monthly', payNowAvailable: false } });
    expect(onboardingPlanButton(onMinimum, monthlyPro)).toEqual({ kind: 'plans-page', label: 'Upgrade' });
    const onVirtuoso = testUser({ plan: { name: 'virtuoso', billingCycle: 'monthly', payNowAvailable: false } });
    expect(onboardingPlanButton(onVirtuoso, monthlyPro)).toEqual({ kind: 'plans-page', label: 'Downgrade' });
  });

  it('disables the current plan', () => {
    const onPro = testUser({ plan: { name: 'pro', billingCycle: 'monthly', payNowAvailable: false } });
    expect(onboardingPlanButton(onPro, monthlyPro)).toEqual({ kind: 'buy', label: 'Current plan', disabled: true });
  });
});
