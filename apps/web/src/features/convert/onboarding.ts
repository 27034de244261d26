// Onboarding on the Convert screen: the four-step Convert tour, the Convert quickstart (a first
// conversion, with the shipped sample text) and the moves they make. Choices:
// docs/decisions/0014-tours.md.
import { canAdvance, isAtLeast, type OnboardingStep } from '@ownvoice/shared';

/**
 * The tour shows from training_started (where it opens the step-1 guide: wake a Voice first)
 * until the first conversion is done.
 */
export const showsConvertTour = (step: OnboardingStep): boolean =>
  isAtLeast(step, 'training_started') && !isAtLeast(step, 'convert_quickstart_complete');

/** An awake Voice means the activation tour is done: the step moves to activation_tour_complete. */
export const mayPromoteToActivation = (step: OnboardingStep, hasAwakeVoice: boolean): boolean =>
  hasAwakeVoice && isAtLeast(step, 'training_started') && canAdvance(step, 'activation_tour_complete');

/** A conversion completed at activation_tour_complete finishes the Convert quickstart. */
export const completesConvertQuickstart = (step: OnboardingStep): boolean => step === 'activation_tour_complete';

/** At activation_tour_complete, with nothing typed yet, the screen prompts a first conversion. */
export const showsFirstConversionPrompt = (step: OnboardingStep, textIsBlank: boolean): boolean =>
  step === 'activation_tour_complete' && textIsBlank;

export interface ConvertTourStep {
  title: string;
  body: string;
  /** The data-testid of the control the step is about. */
  target: string;
}

/** The Convert tour's four steps; the first depends on whether a Voice is awake yet. */
export function convertTourSteps(hasAwakeVoice: boolean): readonly ConvertTourStep[] {
  return [
    {
      title: 'Step 1: pick an awake Voice',
      body: hasAwakeVoice
        ? 'Only awake Voices are listed here. Pick the one to write in.'
        : 'Convert rewrites text with an awake Voice, and none of yours is awake yet. Once your Voice has finished training, press Wake Up on its card on the Dashboard. Waking usually takes a minute or two (sometimes 5 to 10); then come back here.',
      target: 'convert-voice-select',
    },
    {
      title: 'Step 2: your text',
      body: 'Write or paste the text to rewrite: generic AI text, or a draft of your own. Headings, lists, bold and links are kept.',
      target: 'convert-editor',
    },
    {
      title: 'Step 3: convert',
      body: 'Press Convert. The text is cut into chunks and each one comes back in your Voice as it is written. Tick Edit pass to have every chunk proofread against your text afterwards.',
      target: 'convert-submit',
    },
    {
      title: 'Step 4: edit and copy',
      body: 'The result is yours to edit here. Copy puts it on the clipboard; after an edit pass you can switch between the proofread and the plain rewrite.',
      target: 'convert-output',
    },
  ];
}
