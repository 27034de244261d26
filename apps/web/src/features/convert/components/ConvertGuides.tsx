// The Convert screen's onboarding panels: the four-step tour, the first-conversion quickstart
// with the shipped sample text, and the word after that first conversion.
import { Button } from '@mantine/core';
import { Link } from 'react-router';
import { TutorialPanel } from '../../../components/TutorialPanel';
import { PATHS } from '../../../lib/paths';
import { convertTourSteps } from '../onboarding';

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
