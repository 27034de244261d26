// The short tutorial shown to a user about to train a first Voice (spec §2: steps trial_ready
// and plan_active), with the figures of §9.
import { Alert, List } from '@mantine/core';
import { IconSchool } from '@tabler/icons-react';
import { useState } from 'react';

export function TrainingTutorialHint() {
  const [open, setOpen] = useState(true);
  if (!open) return null;
  return (
    <Alert
      color="violet"
      icon={<IconSchool size={20} />}
      title="Let's train your first Voice"
      withCloseButton
      onClose={() => setOpen(false)}
      closeButtonLabel="Close tutorial"
      data-testid="create-voice-tutorial"
    >
      <List fz="sm" spacing={4}>
        <List.Item>Give it a name, then paste your writing or upload files. Only your own words, please.</List.Item>
        <List.Item>
          20,000 characters is the minimum; about 40,000 (around 6,000 words, or 7 blog posts) works best, and more
          helps up to about 200,000.
        </List.Item>
        <List.Item>Training takes 20 to 40 minutes. You can play a round of Rota while you wait.</List.Item>
      </List>
    </Alert>
  );
}
