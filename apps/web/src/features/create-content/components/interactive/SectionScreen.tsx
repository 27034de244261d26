// A drafted section: the base model's draft beside its rewrite in the Voice, to revise or approve.
import { Button, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { CopyTextButton } from '../../../../components/CopyTextButton';
import { copyText } from '../../interactive-view';
import { type RawDraftProps, RawToggle, RevisionBox, type ScreenProps, TextPanel } from './parts';

export function SectionScreen({
  screen,
  state,
  pending,
  update,
  send,
  showRaw,
  onToggleRaw,
}: ScreenProps<'section'> & RawDraftProps) {
  const busy = pending !== null;
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={3} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {screen.heading}
        </Title>
        <Group gap="xs">
          <RawToggle shown={showRaw} onToggle={onToggleRaw} />
          <CopyTextButton value={copyText(state)} testId="interactive-copy" />
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, md: showRaw ? 2 : 1 }} spacing="md">
        {showRaw && <TextPanel label="Draft" value={screen.draft} testId="interactive-draft" />}
        <TextPanel label="In your Voice" value={screen.rephrased} testId="interactive-rephrased" />
      </SimpleGrid>
      <RevisionBox
        value={state.sectionRevision}
        onChange={(value) => update({ ...state, sectionRevision: value })}
        disabled={busy}
        label="What should change in this section?"
      />
      <Group gap="xs">
        <Button
          variant="default"
          onClick={() => send(state, 'revise_section')}
          loading={pending === 'revise_section'}
          disabled={busy}
          data-testid="interactive-revise"
        >
          Revise section
        </Button>
        <Button
          onClick={() => send(state, 'approve_section')}
          loading={pending === 'approve_section'}
          disabled={busy}
          data-testid="interactive-approve"
        >
          {screen.isLast ? 'Approve and finish' : 'Approve and continue'}
        </Button>
      </Group>
    </Stack>
  );
}
