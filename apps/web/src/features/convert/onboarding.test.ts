import { describe, expect, it } from 'vitest';
import {
  completesConvertQuickstart,
  mayPromoteToActivation,
  showsFirstConversionPrompt,
  showsStepOneGuide,
} from './onboarding';

describe('Convert onboarding', () => {
  it('shows the step-1 guide at training_started only', () => {
    expect(showsStepOneGuide('training_started')).toBe(true);
    expect(showsStepOneGuide('rephrasing_tour_complete')).toBe(false);
  });

  it('promotes to activation_tour_complete once a Voice is awake, never backwards', () => {
    expect(mayPromoteToActivation('training_started', true)).toBe(true);
    expect(mayPromoteToActivation('rephrasing_tour_complete', true)).toBe(true);
    expect(mayPromoteToActivation('rephrasing_tour_complete', false)).toBe(false);
    expect(mayPromoteToActivation('activation_tour_complete', true)).toBe(false);
    expect(mayPromoteToActivation('tutorial_complete', true)).toBe(false);
    expect(mayPromoteToActivation('plan_active', true)).toBe(false);
  });

  it('finishes the quickstart after a conversion at activation_tour_complete', () => {
    expect(completesConvertQuickstart('activation_tour_complete')).toBe(true);
    expect(completesConvertQuickstart('convert_quickstart_complete')).toBe(false);
  });

  it('prompts a first conversion at activation_tour_complete while the text is blank', () => {
    expect(showsFirstConversionPrompt('activation_tour_complete', true)).toBe(true);
    expect(showsFirstConversionPrompt('activation_tour_complete', false)).toBe(false);
    expect(showsFirstConversionPrompt('convert_quickstart_complete', true)).toBe(false);
  });
});
