// Onboarding on the Create screen: the Create tour at
// training_started (finishing it moves the step to rephrasing_tour_complete), and the Create
// quickstart at convert_quickstart_complete while the prompt is empty (finishing it moves the
// step to create_quickstart_complete).
import type { OnboardingStep } from '@ownvoice/shared';

export const showsCreateTour = (step: OnboardingStep): boolean => step === 'training_started';

export const showsCreateQuickstart = (step: OnboardingStep, promptIsBlank: boolean): boolean =>
  step === 'convert_quickstart_complete' && promptIsBlank;

/** A generation completed during the quickstart finishes it too. */
export const completesCreateQuickstart = (step: OnboardingStep): boolean => step === 'convert_quickstart_complete';

/** The Create tour's seven panels, each with the data-testid of the control it is about. */
export const CREATE_TOUR_STEPS: readonly { title: string; body: string; target?: string }[] = [
  {
    title: 'Welcome to Create',
    body: 'Create drafts new content from a prompt with a general model, then rewrites the draft in your Voice.',
  },
  {
    title: 'Pick a mode',
    body: 'Quick writes straight away. Interactive asks you a few questions first.',
    target: 'create-mode',
  },
  {
    title: 'Pick an awake Voice',
    body: 'Only awake Voices can write. Wake one on the Dashboard once it has finished training.',
    target: 'create-voice-select',
  },
  {
    title: 'Describe what you need',
    body: 'Write a prompt: the topic, the audience, the points to make. Add a reference file if it helps.',
    target: 'create-prompt',
  },
  {
    title: 'Choose a format',
    body: 'A blog post, an e-mail, a social post and more: each has its own length and shape.',
    target: 'create-format',
  },
  {
    title: 'Watch it write',
    body: 'The Original panel shows the draft (and the thinking behind it); the Rephrased panel shows it in your Voice.',
    target: 'create-original',
  },
  {
    title: 'Polish and copy',
    body: 'Tick Edit pass to proofread the rewrite against the draft, re-rephrase for another take, then copy it.',
    target: 'create-edit-pass',
  },
];
