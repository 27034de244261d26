import type { OnboardingStep, PlanName } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import { decidePrivateAccess } from './route-access';

const user = (step: OnboardingStep, plan: PlanName = 'none') =>
  testUser({ onboarding: { step }, plan: { name: plan } });

describe('private route access', () => {
  it('lets a new user open onboarding, account and Voice creation but not the dashboard', () => {
    const fresh = user('registered');
    expect(decidePrivateAccess(fresh, '/dashboard/create')).toEqual({ kind: 'render' });
    expect(decidePrivateAccess(fresh, '/dashboard/account')).toEqual({ kind: 'render' });
    expect(decidePrivateAccess(fresh, '/dashboard')).toEqual({ kind: 'redirect', to: '/onboarding/choice' });
    expect(decidePrivateAccess(fresh, '/dashboard/plans')).toEqual({ kind: 'redirect', to: '/onboarding/choice' });
  });

  it('opens the dashboard at training_started and plans at create_quickstart_complete', () => {
    expect(decidePrivateAccess(user('training_started'), '/dashboard')).toEqual({ kind: 'render' });
    expect(decidePrivateAccess(user('training_started'), '/dashboard/plans').kind).toBe('redirect');
    expect(decidePrivateAccess(user('create_quickstart_complete'), '/dashboard/plans')).toEqual({ kind: 'render' });
  });

  it('opens everything for paying users and after the tutorial', () => {
    expect(decidePrivateAccess(user('registered', 'pro'), '/dashboard/plans')).toEqual({ kind: 'render' });
    expect(decidePrivateAccess(user('tutorial_complete', 'trial'), '/dashboard')).toEqual({ kind: 'render' });
  });

  it('sends a trial_ready user to the plans page instead of the choice screen', () => {
    const ready = user('trial_ready', 'trial');
    expect(decidePrivateAccess(ready, '/dashboard')).toEqual({ kind: 'redirect', to: '/dashboard/plans' });
    expect(decidePrivateAccess(ready, '/dashboard/plans')).toEqual({ kind: 'render' });
    expect(decidePrivateAccess(ready, '/dashboard/create')).toEqual({ kind: 'render' });
  });

  it('shows the pages a checkout returns to whatever the step, so the buyer sees how it went', () => {
    for (const path of ['/dashboard/plans/success', '/dashboard/plans/cancel']) {
      expect(decidePrivateAccess(user('plan_checkout_started'), path)).toEqual({ kind: 'render' });
      expect(decidePrivateAccess(user('pay_later_setup_started'), path)).toEqual({ kind: 'render' });
    }
  });

  it('lets a newly invited admin, still at registered, open the account page to set up two-factor', () => {
    const invited = testUser({ role: 'admin', onboarding: { step: 'registered' }, plan: { name: 'none' } });
    expect(decidePrivateAccess(invited, '/dashboard/account')).toEqual({ kind: 'render' });
  });
});
