// The short tutorial shown to a user about to train a first Voice (onboarding steps trial_ready
// and plan_active): how much writing it needs and how its training time is shown.
import { List } from '@mantine/core';
import { TutorialPanel } from '../../../components/TutorialPanel';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useTourDismissal } from '../../../lib/session/use-tour-dismissal';

const STEPS = [
  {
    title: "Let's train your first Voice",
    body: (
      <List fz="sm" spacing={4}>
        <List.Item>Give it a name, then paste your writing or upload files. Only your own words, please.</List.Item>
        <List.Item>
          20,000 characters is the minimum; about 40,000 (around 6,000 words, or 7 blog posts) works best, and more
          helps up to about 200,000.
        </List.Item>
        <List.Item>
          How long training takes depends on how much you write and on the machine; its progress page shows the time
          left as it goes. You can play a round of Rota while you wait.
        </List.Item>
      </List>
    ),
    target: '[data-testid="create-voice-form"]',
  },
];

export function TrainingTutorialHint() {
  const user = useCurrentUser();
  const { dismissed, dismiss } = useTourDismissal(user.id || user._id, 'create-voice', user.onboarding.step);
  if (dismissed) return null;
  return <TutorialPanel label="Voice tutorial" steps={STEPS} onClose={dismiss} testId="create-voice-tutorial" />;
}
