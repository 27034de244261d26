import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import { authTarget } from './auth-target';

const newcomer = testUser({ plan: { name: 'none', billingCycle: null }, onboarding: { step: 'registered' } });
const subscriber = testUser({
  plan: { name: 'pro', billingCycle: 'monthly' },
  onboarding: { step: 'tutorial_complete' },
});

describe('authTarget', () => {
  it('takes a newcomer from the landing page’s Login to the onboarding plans page', () => {
    expect(authTarget('/onboarding/plans', '/dashboard', newcomer)).toBe('/onboarding/plans');
  });

  it('takes someone already paying to their dashboard instead', () => {
    expect(authTarget('/onboarding/plans', '/dashboard', subscriber)).toBe('/dashboard');
    expect(authTarget('/onboarding/plans?plan=pro', '/dashboard', subscriber)).toBe('/dashboard');
  });

  it('keeps any other redirect on this site, and refuses another origin', () => {
    expect(authTarget('/dashboard/convert', '/dashboard', subscriber)).toBe('/dashboard/convert');
    expect(authTarget('//evil.example', '/dashboard', subscriber)).toBe('/dashboard');
    expect(authTarget(null, '/onboarding/choice', newcomer)).toBe('/onboarding/choice');
  });
});
