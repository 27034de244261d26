import { describe, expect, it } from 'vitest';
import {
  completesConvertQuickstart,
  convertTourSteps,
  mayPromoteToActivation,
  showsConvertTour,
  showsFirstConversionPrompt,
} from './onboarding';

describe('Convert onboarding', () => {
  it('shows the tour from training_started (the step-1 guide) until the first conversion', () => {
    expect(showsConvertTour('plan_active')).toBe(false);
    expect(showsConvertTour('training_started')).toBe(true);
    expect(showsConvertTour('rephrasing_tour_complete')).toBe(true);
    expect(showsConvertTour('activation_tour_complete')).toBe(true);
    expect(showsConvertTour('convert_quickstart_complete')).toBe(false);
    expect(showsConvertTour('tutorial_complete')).toBe(false);
  });

  it('has four steps, the first saying to wake a Voice while none is awake', () => {
    expect(convertTourSteps(true)).toHaveLength(4);
    expect(convertTourSteps(false)[0]?.body).toMatch(/Wake Up/);
    expect(convertTourSteps(true)[0]?.body).not.toMatch(/Wake Up/);
    expect(convertTourSteps(true).map((step) => step.target)).toEqual([
      'convert-voice-select',
      'convert-editor',
      'convert-submit',
      'convert-output',
    ]);
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
    expect(completesConvertQuickstart('rephrasing_tour_complete')).toBe(false);
  });

  it('prompts a first conversion at activation_tour_complete while the text is blank', () => {
    expect(showsFirstConversionPrompt('activation_tour_complete', true)).toBe(true);
    expect(showsFirstConversionPrompt('activation_tour_complete', false)).toBe(false);
    expect(showsFirstConversionPrompt('convert_quickstart_complete', true)).toBe(false);
  });
});
