import { describe, expect, it } from 'vitest';
import {
  clientMayMoveTo,
  mayBypassOnboarding,
  mayFinishTutorial,
  ONBOARDING_STEPS,
  type OnboardingStep,
  stepsBefore,
} from './onboarding.js';

describe('the onboarding ladder', () => {
  it('lists the steps before a step, in order', () => {
    expect(stepsBefore('registered')).toEqual([]);
    expect(stepsBefore('choice')).toEqual(['registered']);
    expect(stepsBefore('tutorial_complete')).toEqual(ONBOARDING_STEPS.slice(0, -1));
  });

  it('lets the screens climb the tours one action at a time, and nothing else', () => {
    const climb: [OnboardingStep, OnboardingStep][] = [
      ['plan_active', 'training_started'],
      ['trial_ready', 'training_started'],
      ['training_started', 'rephrasing_tour_complete'],
      ['rephrasing_tour_complete', 'activation_tour_complete'],
      ['training_started', 'activation_tour_complete'],
      ['activation_tour_complete', 'convert_quickstart_complete'],
      ['convert_quickstart_complete', 'create_quickstart_complete'],
    ];
    for (const [from, to] of climb) expect(clientMayMoveTo(from, to), `${from} → ${to}`).toBe(true);
    const jumps: [OnboardingStep, OnboardingStep][] = [
      ['training_started', 'convert_quickstart_complete'],
      ['rephrasing_tour_complete', 'create_quickstart_complete'],
      ['registered', 'tutorial_complete'],
      ['choice', 'trial_ready'],
    ];
    for (const [from, to] of jumps) expect(clientMayMoveTo(from, to), `${from} → ${to}`).toBe(false);
  });

  it('finishes the tutorial after the Create quickstart on a paid plan, or at once for an admin', () => {
    expect(mayFinishTutorial('create_quickstart_complete', 'minimum')).toBe(true);
    expect(mayFinishTutorial('create_quickstart_complete', 'trial')).toBe(false);
    expect(mayFinishTutorial('convert_quickstart_complete', 'pro')).toBe(false);
    expect(mayBypassOnboarding('admin')).toBe(true);
    expect(mayBypassOnboarding('super_admin')).toBe(true);
    expect(mayBypassOnboarding('user')).toBe(false);
  });
});
