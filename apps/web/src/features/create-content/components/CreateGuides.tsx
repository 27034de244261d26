// The Create screen's onboarding panels: the seven-step Create tour at training_started,
// the quickstart at convert_quickstart_complete, and the wrap-up prompt leading to Plans.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconBulb, IconConfetti } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { GuidePanel } from '../../../components/GuidePanel';
import { PATHS } from '../../../lib/paths';
import { CREATE_TOUR_STEPS } from '../onboarding';

export function CreateTour({ onFinish }: { onFinish: () => void }) {
  const [open, setOpen] = useState(true);
  const [index, setIndex] = useState(0);
  const step = CREATE_TOUR_STEPS[index] ?? CREATE_TOUR_STEPS[0];
  const last = index === CREATE_TOUR_STEPS.length - 1;
  return (
    <GuidePanel
      title={`${step?.title ?? ''} (${index + 1}/${CREATE_TOUR_STEPS.length})`}
      closeButtonLabel="Close tour"
      testId="create-tour"
      opened={open}
      onClose={() => setOpen(false)}
    >
      <Text fz="sm">{step?.body}</Text>
      <Group mt="sm" gap="xs">
        <Button size="xs" variant="default" disabled={index === 0} onClick={() => setIndex((i) => i - 1)}>
          Back
        </Button>
        {last ? (
          <Button
            size="xs"
            onClick={() => {
              setOpen(false);
              onFinish();
            }}
            data-testid="create-tour-finish"
          >
            Finish
          </Button>
        ) : (
          <Button size="xs" onClick={() => setIndex((i) => i + 1)} data-testid="create-tour-next">
            Next
          </Button>
        )}
      </Group>
    </GuidePanel>
  );
}

export function CreateQuickstart({ onUseSample, onFinish }: { onUseSample: () => void; onFinish: () => void }) {
  return (
    <Alert color="violet" icon={<IconBulb size={20} />} title="Create your first piece" data-testid="create-quickstart">
      <Text fz="sm">
        Pick your awake Voice, describe what you need and press Generate Content. The draft appears on the left, the
        same piece in your Voice on the right. Not sure what to ask for? Start with a sample prompt.
      </Text>
      <Group mt="sm" gap="xs">
        <Button size="xs" variant="light" onClick={onUseSample} data-testid="create-sample">
          Use sample prompt
        </Button>
        <Button size="xs" variant="default" onClick={onFinish} data-testid="create-quickstart-finish">
          Finish
        </Button>
      </Group>
    </Alert>
  );
}

export function WrapUp({ onClose }: { onClose: () => void }) {
  return (
    <Alert
      color="teal"
      icon={<IconConfetti size={20} />}
      title="You're all set"
      withCloseButton
      onClose={onClose}
      closeButtonLabel="Close"
      data-testid="create-wrap-up"
    >
      <Text fz="sm">
        You have trained a Voice, converted text and created content with it. See the plans for more Voices, waking
        hours, proofreads and short content.
      </Text>
      <Button component={Link} to={PATHS.plans} size="xs" variant="light" mt="sm">
        See plans
      </Button>
    </Alert>
  );
}
