import type { OnboardingStep, Role } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { navItems } from './nav-items';

const user = (role: Role, step: OnboardingStep) => ({
  role,
  onboarding: { step },
  plan: {
    name: 'none' as const,
    billingCycle: null,
    payNowDiscount: false,
    trialEndsAt: null,
    payNowAvailable: true,
    trialRefused: false,
  },
});

describe('navbar items', () => {
  it('shows About, How To, Login and Register when signed out', () => {
    expect(navItems(null, '/').map((i) => i.label)).toEqual(['About', 'How To', 'Login', 'Register']);
    const onLogin = navItems(null, '/auth', '?tab=login');
    expect(onLogin.find((i) => i.active)?.label).toBe('Login');
  });

  it('greys Convert, Create and Buy More Usage for a new user, and hides Admin from users', () => {
    const items = navItems(user('user', 'registered'), '/dashboard/account');
    expect(items.map((i) => i.label)).toEqual([
      'About',
      'How To',
      'Dashboard',
      'Convert',
      'Create',
      'Buy More Usage',
      'Account',
    ]);
    const locked = items.filter((i) => i.lockedReason).map((i) => i.label);
    expect(locked).toEqual(['Convert', 'Create', 'Buy More Usage']);
  });

  it('unlocks Convert and Create at training_started and shows Admin to admins', () => {
    const items = navItems(user('admin', 'training_started'), '/dashboard/create-content');
    expect(items.filter((i) => i.lockedReason).map((i) => i.label)).toEqual(['Buy More Usage']);
    expect(items.some((i) => i.label === 'Admin')).toBe(true);
    expect(items.filter((i) => i.active).map((i) => i.label)).toEqual(['Create']);
  });

  it('counts every path under /dashboard/create as Create', () => {
    const items = navItems(user('user', 'tutorial_complete'), '/dashboard/create');
    expect(items.filter((i) => i.active).map((i) => i.label)).toEqual(['Create']);
  });
});
