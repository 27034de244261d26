// One Voice on the dashboard: its name (to the details page), status label, training
// progress with its time left, or failure, and the actions its status allows. A freshly trained
// Voice's message says it is ready.
import { ActionIcon, Anchor, Badge, Button, Card, Group, Loader, Menu, Progress, Stack, Text } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import {
  IconDots,
  IconLock,
  IconMoon,
  IconPencil,
  IconProgress,
  IconSun,
  IconTrash,
  IconWand,
  IconWorld,
} from '@tabler/icons-react';
import { Link } from 'react-router';
import { VoiceStatusBadge } from '../../../components/VoiceStatusBadge';
import { formatDate } from '../../../lib/format';
import { convertPath, voicePath, voiceTrainingPath } from '../../../lib/paths';
import { stageText, timeLeftText } from '../../../lib/training-time';
import { cardActions, mayToggleVisibility } from '../card-actions';

export interface VoiceCardHandlers {
  onWake: (voice: Voice) => void;
  /** Convert was pressed (the link then opens Convert). */
  onConvert?: (voice: Voice) => void;
  onSleep: (voice: Voice) => void;
  onRename: (voice: Voice) => void;
  onToggleVisibility: (voice: Voice) => void;
  onDelete: (voice: Voice) => void;
}

const TRANSITION_NOTES: Partial<Record<Voice['status'], string>> = {
  activating: 'Waking up, usually a minute or two…',
  deactivating: 'Going to sleep…',
};

function TrainingProgress({ voice }: { voice: Voice }) {
  const percent = Math.round(Math.min(100, Math.max(0, voice.progress)));
  const stage = stageText(voice);
  const timeLeft = timeLeftText(voice);
  return (
    <Stack gap={4}>
      <Progress value={percent} animated striped aria-label="Training progress" data-testid="voice-progress" />
      <Text fz="xs" c="dimmed">
        {percent}%{stage ? ` · ${stage}` : ''}
      </Text>
      {timeLeft && (
        <Text fz="sm" fw={500} data-testid="voice-time-left">
          {timeLeft}
        </Text>
      )}
    </Stack>
  );
}

function FailureDetails({ voice }: { voice: Voice }) {
  return (
    <Stack gap={4}>
      <Text fz="sm" c="red.8" data-testid="voice-failure">
        {voice.statusMessage || 'Training failed.'}
      </Text>
    </Stack>
  );
}

function PrimaryActions({ voice, onWake, onSleep, onConvert, onDelete }: { voice: Voice } & VoiceCardHandlers) {
  const transition = TRANSITION_NOTES[voice.status];
  if (transition) {
    return (
      <Group gap="xs" wrap="nowrap">
        <Loader size="xs" />
        <Text fz="sm" c="dimmed">
          {transition}
        </Text>
      </Group>
    );
  }
  const buttons = cardActions(voice.status).map((action) => {
    switch (action) {
      case 'wake':
        return (
          <Button key={action} size="sm" leftSection={<IconSun size={16} />} onClick={() => onWake(voice)}>
            Wake Up
          </Button>
        );
      case 'sleep':
        return (
          <Button
            key={action}
            size="sm"
            variant="default"
            leftSection={<IconMoon size={16} />}
            onClick={() => onSleep(voice)}
          >
            Sleep
          </Button>
        );
      case 'convert':
        return (
          <Button
            key={action}
            size="sm"
            component={Link}
            to={convertPath(voice._id)}
            onClick={() => onConvert?.(voice)}
            leftSection={<IconWand size={16} />}
          >
            Convert
          </Button>
        );
      case 'progress':
        return (
          <Button
            key={action}
            size="sm"
            variant="light"
            component={Link}
            to={voiceTrainingPath(voice._id)}
            leftSection={<IconProgress size={16} />}
          >
            See Progress
          </Button>
        );
      default:
        return null;
    }
  });
  if (voice.status === 'failed') {
    buttons.push(
      <Button
        key="delete"
        size="sm"
        color="red"
        variant="light"
        leftSection={<IconTrash size={16} />}
        onClick={() => onDelete(voice)}
      >
        Delete
      </Button>,
    );
  }
  return <Group gap="xs">{buttons}</Group>;
}

function CardMenu({ voice, onRename, onToggleVisibility, onDelete }: { voice: Voice } & VoiceCardHandlers) {
  return (
    <Menu position="bottom-end" withinPortal shadow="md">
      <Menu.Target>
        <ActionIcon variant="subtle" color="gray" size="lg" aria-label="Voice actions" data-testid="voice-menu">
          <IconDots size={20} />
        </ActionIcon>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item leftSection={<IconPencil size={16} />} onClick={() => onRename(voice)}>
          Rename
        </Menu.Item>
        {mayToggleVisibility(voice) && (
          <Menu.Item
            leftSection={voice.isPublic ? <IconLock size={16} /> : <IconWorld size={16} />}
            onClick={() => onToggleVisibility(voice)}
          >
            {voice.isPublic ? 'Make Private' : 'Make Public'}
          </Menu.Item>
        )}
        <Menu.Divider />
        <Menu.Item color="red" leftSection={<IconTrash size={16} />} onClick={() => onDelete(voice)}>
          Delete
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

export function VoiceCard({ voice, ...handlers }: { voice: Voice } & VoiceCardHandlers) {
  const training = voice.status === 'training' || voice.status === 'pending';
  return (
    <Card padding="lg" data-testid="voice-card" data-status={voice.status} data-voice-id={voice._id}>
      <Stack gap="sm" h="100%">
        <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
          <Anchor
            component={Link}
            to={voicePath(voice._id)}
            fw={700}
            fz="lg"
            c="dark"
            style={{ wordBreak: 'break-word' }}
            data-testid="voice-name"
          >
            {voice.name}
          </Anchor>
          <CardMenu voice={voice} {...handlers} />
        </Group>
        <Group gap="xs">
          <VoiceStatusBadge status={voice.status} />
          {voice.isPublic && (
            <Badge color="blue" variant="outline" leftSection={<IconWorld size={12} />} data-testid="voice-public">
              public
            </Badge>
          )}
        </Group>
        {training && <TrainingProgress voice={voice} />}
        {voice.status === 'failed' ? (
          <FailureDetails voice={voice} />
        ) : (
          voice.statusMessage && (
            <Text fz="sm" c="dimmed" data-testid="voice-status-message">
              {voice.statusMessage}
            </Text>
          )
        )}
        <Text fz="xs" c="dimmed">
          Created {formatDate(voice.createdAt)}
        </Text>
        <Stack mt="auto" pt="xs">
          <PrimaryActions voice={voice} {...handlers} />
        </Stack>
      </Stack>
    </Card>
  );
}
