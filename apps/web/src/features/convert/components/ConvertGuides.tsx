// The Convert screen's onboarding panels: the step-1 guide at training_started, and the
// first-conversion prompt at activation_tour_complete while the text box is empty.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconBulb } from '@tabler/icons-react';
import { Link } from 'react-router';
import { GuidePanel } from '../../../components/GuidePanel';
import { PATHS } from '../../../lib/paths';

export function StepOneGuide() {
  return (
    <GuidePanel title="Step 1: wake your Voice" closeButtonLabel="Close guide" testId="convert-guide">
      <Text fz="sm">
        Convert rewrites text with an awake Voice. Once your Voice has finished training, press Wake Up on its card on
        the Dashboard. Waking usually takes a minute or two (sometimes up to 5-10 minutes). Then come back here, pick
        it, paste some text and press Convert.
      </Text>
      <Button component={Link} to={PATHS.dashboard} size="xs" variant="light" mt="sm">
        Go to the Dashboard
      </Button>
    </GuidePanel>
  );
}

/** A short generic paragraph to try a first conversion with. */
export const SAMPLE_TEXT = [
  '## Why small businesses should start a blog',
  '',
  'In today’s fast-paced digital landscape, having a blog is more important than ever. A blog allows businesses to ' +
    'showcase their expertise, connect with their audience, and improve their search engine rankings. Furthermore, ' +
    'consistently publishing high-quality content can help build trust and credibility over time.',
  '',
  '- It drives organic traffic to your website.',
  '- It gives you content to share on social media.',
  '- It positions your brand as a thought leader in your industry.',
].join('\n');

export function FirstConversionPrompt({ onUseSample }: { onUseSample: () => void }) {
  return (
    <Alert color="violet" icon={<IconBulb size={20} />} title="Try your first conversion" data-testid="convert-prompt">
      <Text fz="sm">
        Paste a paragraph of generic AI text into the left box, pick your awake Voice and press Convert. The text comes
        back chunk by chunk in your style.
      </Text>
      <Group mt="sm">
        <Button size="xs" variant="light" onClick={onUseSample} data-testid="convert-sample">
          Use sample text
        </Button>
      </Group>
    </Alert>
  );
}
