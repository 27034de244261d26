// Onboarding on the Convert screen.
import { canAdvance, isAtLeast, type OnboardingStep } from '@ownvoice/shared';

/** At training_started the screen opens the step-1 guide (wake a Voice first). */
export const showsStepOneGuide = (step: OnboardingStep): boolean => step === 'training_started';

/** An awake Voice means the activation tour is done: the step moves to activation_tour_complete. */
export const mayPromoteToActivation = (step: OnboardingStep, hasAwakeVoice: boolean): boolean =>
  hasAwakeVoice && isAtLeast(step, 'training_started') && canAdvance(step, 'activation_tour_complete');

/** A conversion completed at activation_tour_complete finishes the Convert quickstart. */
export const completesConvertQuickstart = (step: OnboardingStep): boolean => step === 'activation_tour_complete';

/** At activation_tour_complete, with nothing typed yet, the screen prompts a first conversion. */
export const showsFirstConversionPrompt = (step: OnboardingStep, textIsBlank: boolean): boolean =>
  step === 'activation_tour_complete' && textIsBlank;
