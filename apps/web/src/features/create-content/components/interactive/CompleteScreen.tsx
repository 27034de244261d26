// The whole piece, to copy, with a way back to the last section.
import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { IconArrowBackUp } from '@tabler/icons-react';
import { CopyTextButton } from '../../../../components/CopyTextButton';
import { backToEditing, copyText, pieceOf } from '../../interactive-view';
import { InteractiveFailures } from './InteractiveFailures';
import { type RawDraftProps, RawToggle, type ScreenProps, TextPanel } from './parts';

export function CompleteScreen({
  screen,
  state,
  pending,
  update,
  send,
  showRaw,
  onToggleRaw,
}: ScreenProps<'complete'> & RawDraftProps) {
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={2} fz="lg">
          Your piece
        </Title>
        <Group gap="xs">
          <RawToggle shown={showRaw} onToggle={onToggleRaw} />
          <CopyTextButton value={copyText(state)} testId="interactive-copy" />
        </Group>
      </Group>
      <InteractiveFailures state={state} pending={pending} send={send} />
      <SimpleGrid cols={{ base: 1, md: showRaw ? 2 : 1 }} spacing="md">
        {showRaw && <TextPanel label="Draft" value={pieceOf(state, 'draft')} testId="interactive-draft" />}
        <TextPanel label="In your Voice" value={screen.piece} testId="interactive-complete" />
      </SimpleGrid>
      <Group gap="xs">
        <Button
          variant="default"
          leftSection={<IconArrowBackUp size={16} />}
          onClick={() => update(backToEditing(state))}
          disabled={pending !== null}
          data-testid="interactive-back"
        >
          Back to editing
        </Button>
      </Group>
    </Stack>
  );
}
