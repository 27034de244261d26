// /dashboard/create: the Create New Voice form, the onboarding "Skip this step" for a
// user who has not reached training_started, the tutorial for one about to train a first Voice,
// and the admin bypass link (?onboard=bypass) that finishes an admin's onboarding.
import { Button, Card, Grid, List, Stack, Text, Title } from '@mantine/core';
import { isAtLeast } from '@ownvoice/shared';
import { IconPlayerSkipForward } from '@tabler/icons-react';
import { useEffect } from 'react';
import { Page } from '../../../components/Page';
import { useCurrentUser } from '../../../lib/session/session-context';
import { TRAINING_TIME_STATEMENT } from '../../../lib/training-time';
import { claimDraft, useCreateVoiceState } from '../create-voice-store';
import { useOnboardingBypass } from '../hooks/use-onboarding-bypass';
import { useSkipTraining } from '../hooks/use-skip-training';
import { CreateVoiceForm } from './CreateVoiceForm';
import { ImportVoiceCard } from './ImportVoiceCard';
import { TrainingTutorialHint } from './TrainingTutorialHint';

function CreateVoiceTips() {
  return (
    <Stack gap="lg">
      <Card>
        <Title order={2} fz="lg" mb="sm">
          What you will need
        </Title>
        <List spacing="xs" fz="sm">
          <List.Item>At least 20,000 characters of your own writing (about 40,000 is ideal)</List.Item>
          <List.Item>Pasted text, or files: .txt, .md, .pdf, .docx, .epub, .html, .jsonl</List.Item>
          <List.Item>Up to 10 MB per file and 50 MB in total</List.Item>
        </List>
      </Card>
      <Card>
        <Title order={2} fz="lg" mb="sm">
          What happens next
        </Title>
        <Text fz="sm" c="dimmed">
          {TRAINING_TIME_STATEMENT} You can play a round of Rota while you wait. Once it is done, wake your Voice and
          start converting.
        </Text>
      </Card>
      <ImportVoiceCard />
    </Stack>
  );
}

export function CreateVoicePage() {
  const user = useCurrentUser();
  const draft = useCreateVoiceState(user.id);
  const { skip, pending } = useSkipTraining();
  useOnboardingBypass();
  const step = user.onboarding.step;
  const canSkip = !isAtLeast(step, 'training_started');
  const showTutorial = step === 'trial_ready' || step === 'plan_active';

  // A draft left by another account on this tab is dropped, never shown.
  useEffect(() => claimDraft(user.id), [user.id]);

  return (
    <Page
      title="Create a new Voice"
      description="Train a private model on your own writing."
      actions={
        canSkip && (
          <Button onClick={skip} loading={pending} variant="default" rightSection={<IconPlayerSkipForward size={18} />}>
            Skip this step
          </Button>
        )
      }
    >
      {showTutorial && <TrainingTutorialHint />}
      <Grid gutter="lg">
        <Grid.Col span={{ base: 12, md: 8 }}>
          <CreateVoiceForm draft={draft} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 4 }}>
          <CreateVoiceTips />
        </Grid.Col>
      </Grid>
    </Page>
  );
}
