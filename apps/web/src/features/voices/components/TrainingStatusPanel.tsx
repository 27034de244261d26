// The live state of a training run: progress with stage, message and time left
// while it trains; the support message when it failed; the way onward when it is done.
import { Alert, Badge, Button, Card, Center, Group, Loader, Progress, Stack, Text, Title } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import { IconAlertTriangle, IconCircleCheck, IconLayoutDashboard, IconListDetails } from '@tabler/icons-react';
import type { UseQueryResult } from '@tanstack/react-query';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { VoiceStatusBadge } from '../../../components/VoiceStatusBadge';
import { PATHS, voicePath } from '../../../lib/paths';
import { stageText, timeLeftText } from '../../../lib/training-time';
import { isTrainingStatus, progressPercent } from '../training-status';

function InProgress({ voice }: { voice: Voice }) {
  const percent = progressPercent(voice.progress);
  const timeLeft = timeLeftText(voice);
  const stage = stageText(voice);
  return (
    <Card data-testid="training-progress" data-status={voice.status} data-progress={percent}>
      <Stack gap="md">
        <Group justify="space-between" align="flex-start" gap="xs">
          <Title order={2} fz="xl" style={{ wordBreak: 'break-word' }}>
            {voice.name}
          </Title>
          <VoiceStatusBadge status={voice.status} />
        </Group>
        <Stack gap={6}>
          <Group justify="space-between" gap="xs">
            <Text fw={600} data-testid="training-stage">
              {stage ?? 'Training'}
            </Text>
            <Text fw={700} data-testid="training-percent">
              {percent}%
            </Text>
          </Group>
          <Progress value={percent} size="xl" animated striped aria-label="Training progress" />
          {timeLeft && (
            <Text fz="sm" fw={500} data-testid="training-eta">
              {timeLeft}
            </Text>
          )}
        </Stack>
        {voice.statusMessage && (
          <Text fz="sm" data-testid="training-message">
            {voice.statusMessage}
          </Text>
        )}
        <Text fz="sm" c="dimmed">
          The time left is estimated from this run's own pace. You can leave this page: the dashboard keeps track, and
          this tab's title says when your Voice is ready.
        </Text>
      </Stack>
    </Card>
  );
}

function BackToMyVoices() {
  return (
    <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconLayoutDashboard size={18} />}>
      Back to My Voices
    </Button>
  );
}

function Failed({ voice }: { voice: Voice }) {
  return (
    <Card data-testid="training-failed">
      <Stack gap="md">
        <Alert color="red" icon={<IconAlertTriangle size={20} />} role="alert">
          <Stack gap={4}>
            <Text fw={600}>Training Failed! Please contact support with the following ID: {voice._id}</Text>
            {voice.statusMessage && <Text fz="sm">{voice.statusMessage}</Text>}
          </Stack>
        </Alert>
        <Group>
          <BackToMyVoices />
        </Group>
      </Stack>
    </Card>
  );
}

function Done({ voice }: { voice: Voice }) {
  return (
    <Card data-testid="training-done" data-status={voice.status}>
      <Stack align="center" ta="center" gap="md">
        <IconCircleCheck size={56} color="var(--mantine-color-teal-6)" aria-hidden="true" />
        <Title order={2} fz="xl">
          {voice.name} is ready!
        </Title>
        <Group gap="xs" justify="center">
          <VoiceStatusBadge status={voice.status} />
          {voice.characters != null && (
            <Badge variant="outline" color="gray">
              {voice.characters.toLocaleString('en-US')} characters
            </Badge>
          )}
        </Group>
        <Text c="dimmed" maw={460}>
          {voice.status === 'active'
            ? 'It is awake: convert text in your own voice now.'
            : 'Wake it up on the dashboard to start converting text in your own voice.'}
        </Text>
        <Group justify="center" gap="sm">
          <Button component={Link} to={PATHS.dashboard} leftSection={<IconLayoutDashboard size={18} />}>
            Go to My Voices
          </Button>
          <Button
            component={Link}
            to={voicePath(voice._id)}
            variant="default"
            leftSection={<IconListDetails size={18} />}
          >
            View details
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The panel for one Voice's training, from its query (useVoice), which the page's title follows too. */
export function TrainingStatusPanel({ query }: { query: UseQueryResult<Voice> }) {
  if (query.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading training status" />
      </Center>
    );
  }
  if (query.isError && !query.data) {
    return (
      <Stack data-testid="training-error" gap="sm">
        <ErrorAlert message="Failed to fetch Voice status" />
        <Group>
          <BackToMyVoices />
        </Group>
      </Stack>
    );
  }
  const voice = query.data;
  if (!voice) return null;
  if (voice.status === 'failed') return <Failed voice={voice} />;
  return isTrainingStatus(voice.status) ? <InProgress voice={voice} /> : <Done voice={voice} />;
}
