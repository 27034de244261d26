import { describe, expect, it } from 'vitest';
import { testUser } from '../../lib/test-user';
import { finishTutorialPlan } from './tutorial';

describe('finishTutorialPlan', () => {
  it('offers Finish tutorial after the Create quickstart on a paid plan', () => {
    const user = testUser({ plan: { name: 'pro' }, onboarding: { step: 'create_quickstart_complete' } });
    expect(finishTutorialPlan(user)).toBe('paid');
  });

  it('finishes the trial first for someone on the trial', () => {
    const user = testUser({ plan: { name: 'trial' }, onboarding: { step: 'create_quickstart_complete' } });
    expect(finishTutorialPlan(user)).toBe('trial');
  });

  it('offers nothing before the quickstart, after the tutorial, or without any plan', () => {
    expect(
      finishTutorialPlan(testUser({ plan: { name: 'pro' }, onboarding: { step: 'training_started' } })),
    ).toBeNull();
    expect(
      finishTutorialPlan(testUser({ plan: { name: 'pro' }, onboarding: { step: 'tutorial_complete' } })),
    ).toBeNull();
    expect(
      finishTutorialPlan(testUser({ plan: { name: 'none' }, onboarding: { step: 'create_quickstart_complete' } })),
    ).toBeNull();
  });
});
