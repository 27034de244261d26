// The Create screen's onboarding panels: the seven-step Create tour at training_started, the
// quickstart at convert_quickstart_complete, and the wrap-up leading to Plans.
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { TutorialPanel } from '../../../components/TutorialPanel';
import { PATHS } from '../../../lib/paths';
import type { useCreateOnboarding } from '../hooks/use-create-onboarding';
import { CREATE_TOUR_STEPS } from '../onboarding';

const TOUR = CREATE_TOUR_STEPS.map(({ target, ...step }) => ({
  ...step,
  ...(target ? { target: `[data-testid="${target}"]` } : {}),
}));

export function CreateTour({ onFinish, onClose }: { onFinish: () => void; onClose: () => void }) {
  return <TutorialPanel label="Create tour" steps={TOUR} onClose={onClose} onFinish={onFinish} testId="create-tour" />;
}

const QUICKSTART = [
  {
    title: 'Create your first piece',
    body: 'We filled in a sample prompt: change it or keep it, pick your awake Voice and press Generate Content. The draft appears on the left, the same piece in your Voice on the right. Finish when you have seen it.',
    target: '[data-testid="create-generate"]',
  },
];

export function CreateQuickstart({
  onUseSample,
  onFinish,
  onClose,
}: {
  onUseSample: () => void;
  onFinish: () => void;
  onClose: () => void;
}) {
  return (
    <TutorialPanel
      label="Create quickstart"
      steps={QUICKSTART}
      onClose={onClose}
      onFinish={onFinish}
      testId="create-quickstart"
      actions={
        <Button size="xs" variant="light" onClick={onUseSample} data-testid="create-sample">
          Use sample prompt
        </Button>
      }
    />
  );
}

const WRAP_UP = [
  {
    title: "You're all set",
    body: 'You have trained a Voice, converted text and created content with it. On the plans page, finish the tutorial and see the plans for more Voices, waking hours, proofreads and short content.',
  },
];

export function WrapUp({ onClose }: { onClose: () => void }) {
  return (
    <TutorialPanel
      label="Tutorial wrap-up"
      steps={WRAP_UP}
      onClose={onClose}
      testId="create-wrap-up"
      actions={
        <Button component={Link} to={PATHS.plans} size="xs" variant="light" data-testid="create-wrap-up-plans">
          See plans
        </Button>
      }
    />
  );
}

/** Whichever of the panels the onboarding shows now. */
export function CreateGuide({ onboarding }: { onboarding: ReturnType<typeof useCreateOnboarding> }) {
  return (
    <>
      {onboarding.showsTour && <CreateTour onFinish={onboarding.finishTour} onClose={onboarding.closeTour} />}
      {onboarding.showsQuickstart && (
        <CreateQuickstart
          onUseSample={onboarding.fillSamplePrompt}
          onFinish={onboarding.finishQuickstart}
          onClose={onboarding.closeQuickstart}
        />
      )}
      {onboarding.showsWrapUp && <WrapUp onClose={onboarding.closeWrapUp} />}
    </>
  );
}
