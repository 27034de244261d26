import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import { autoContinueTarget, nextSteps, successWording } from './success';

describe('nextSteps', () => {
  it('sends someone before their first Voice to create it', () => {
    const steps = nextSteps(testUser({ plan: { name: 'trial' }, onboarding: { step: 'trial_ready' } }));
    expect(steps.map((s) => s.to)).toEqual(['/dashboard/create', '/dashboard/account']);
  });

  it('sends everyone else to the dashboard, with creating a Voice beside it', () => {
    for (const step of ['training_started', 'tutorial_complete'] as const) {
      expect(nextSteps(testUser({ onboarding: { step } })).map((s) => s.label)).toEqual([
        'Go to Dashboard',
        'Create a Voice',
      ]);
    }
    expect(nextSteps(null)[0]?.to).toBe('/dashboard');
  });

  it('offers the plans when the saved card started no trial', () => {
    const refused = testUser({
      plan: { name: 'none', trialRefused: true },
      onboarding: { step: 'pay_later_setup_started' },
    });
    expect(nextSteps(refused)).toEqual([{ label: 'Choose a plan', to: '/dashboard/plans' }]);
  });
});

describe('autoContinueTarget', () => {
  it('goes back only once the payment has settled', () => {
    expect(autoContinueTarget('/dashboard/convert', 'confirming')).toBeNull();
    for (const state of ['confirmed', 'pending', 'unknown'] as const) {
      expect(autoContinueTarget('/dashboard/convert', state)).toBe('/dashboard/convert');
    }
  });

  it('stays without a remembered page', () => {
    expect(autoContinueTarget(null, 'confirmed')).toBeNull();
  });
});

describe('what the success page says', () => {
  it('calls a saved trial card what it is: nothing charged, the first charge and when', () => {
    const words = successWording('confirmed', true);
    expect(words.pageTitle).toBe('Trial started');
    expect(words.settled.heading).toBe('Your trial has started');
    expect(words.settled.text).toContain('nothing was charged today');
    expect(words.settled.text).toContain('The first charge is $10.00');
    expect(words.confirming.heading).toBe('Starting your trial…');
    expect(JSON.stringify(words)).not.toMatch(/payment (is confirmed|went through)/i);
  });

  it('keeps the payment wording for a payment', () => {
    expect(successWording('confirmed', false)).toMatchObject({
      pageTitle: 'Payment successful',
      settled: { heading: 'Thank you!', text: 'Your payment is confirmed and your new usage is ready.' },
    });
    expect(successWording('trial_refused', true).settled.heading).toBe('No second trial');
  });
});
