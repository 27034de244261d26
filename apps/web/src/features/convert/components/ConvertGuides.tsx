// The Convert screen's onboarding panels: the four-step tour, the first-conversion quickstart
// with the shipped sample text, and the word after that first conversion; one at a time.
import { Button } from '@mantine/core';
import type { OnboardingStep } from '@ownvoice/shared';
import { Link } from 'react-router';
import { TutorialPanel } from '../../../components/TutorialPanel';
import { PATHS } from '../../../lib/paths';
import type { useConvertOnboarding } from '../hooks/use-convert-onboarding';
import { convertTourSteps, showsConvertTour, showsFirstConversionPrompt } from '../onboarding';

const byTestId = (testId: string) => `[data-testid="${testId}"]`;

export function ConvertTour({ hasAwakeVoice, onClose }: { hasAwakeVoice: boolean; onClose: () => void }) {
  const steps = convertTourSteps(hasAwakeVoice).map(({ target, ...step }) => ({ ...step, target: byTestId(target) }));
  return (
    <TutorialPanel
      label="Convert tour"
      steps={steps}
      onClose={onClose}
      testId="convert-tour"
      actions={
        !hasAwakeVoice && (
          <Button component={Link} to={PATHS.dashboard} size="xs" variant="light">
            Go to the Dashboard
          </Button>
        )
      }
    />
  );
}

const QUICKSTART = [
  {
    title: 'Try your first conversion',
    body: 'Paste a paragraph of generic AI text into the left box, or take our sample, then press Convert. The text comes back chunk by chunk in your style.',
    target: byTestId('convert-editor'),
  },
];

export function ConvertQuickstart({ onUseSample, onClose }: { onUseSample: () => void; onClose: () => void }) {
  return (
    <TutorialPanel
      label="Convert quickstart"
      steps={QUICKSTART}
      onClose={onClose}
      testId="convert-quickstart"
      actions={
        <Button size="xs" variant="light" onClick={onUseSample} data-testid="convert-sample">
          Use sample text
        </Button>
      }
    />
  );
}

const CONVERTED = [
  {
    title: 'Your first conversion',
    body: 'That is your text in your Voice. Next, Create drafts a whole new piece from a prompt and writes it in your Voice too.',
    target: byTestId('convert-output'),
  },
];

export function FirstConversionDone({ onClose }: { onClose: () => void }) {
  return (
    <TutorialPanel
      label="Convert quickstart"
      steps={CONVERTED}
      onClose={onClose}
      testId="convert-done"
      actions={
        <Button component={Link} to={PATHS.createContent} size="xs" variant="light" data-testid="convert-done-create">
          Try Create
        </Button>
      }
    />
  );
}

export interface ConvertGuideProps {
  step: OnboardingStep;
  onboarding: ReturnType<typeof useConvertOnboarding>;
  /** The Voice list has loaded: the tour's first step depends on it. */
  voicesLoaded: boolean;
  hasAwakeVoice: boolean;
  textIsBlank: boolean;
  onUseSample: () => void;
}

/** One panel at a time: the tour, then the quickstart, then the word after a first conversion. */
export function ConvertGuide({
  step,
  onboarding,
  voicesLoaded,
  hasAwakeVoice,
  textIsBlank,
  onUseSample,
}: ConvertGuideProps) {
  if (showsConvertTour(step) && !onboarding.tour.dismissed) {
    return voicesLoaded ? <ConvertTour hasAwakeVoice={hasAwakeVoice} onClose={onboarding.tour.dismiss} /> : null;
  }
  if (showsFirstConversionPrompt(step, textIsBlank) && !onboarding.quickstart.dismissed) {
    return <ConvertQuickstart onUseSample={onUseSample} onClose={onboarding.quickstart.dismiss} />;
  }
  return onboarding.firstConversionDone ? <FirstConversionDone onClose={onboarding.closeFirstConversionDone} /> : null;
}
