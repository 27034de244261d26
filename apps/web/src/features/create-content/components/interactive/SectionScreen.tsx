// A drafted section: the base model's draft beside its rewrite in the Voice, to revise or approve.
import { Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { CopyTextButton } from '../../../../components/CopyTextButton';
import { copyText } from '../../interactive-view';
import { InteractiveFailures } from './InteractiveFailures';
import { type RawDraftProps, RawToggle, RevisionControls, type ScreenProps, TextPanel } from './parts';

export function SectionScreen({
  screen,
  state,
  pending,
  update,
  send,
  showRaw,
  onToggleRaw,
}: ScreenProps<'section'> & RawDraftProps) {
  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Title order={2} fz="lg" style={{ overflowWrap: 'anywhere' }}>
          {screen.heading}
        </Title>
        <Group gap="xs">
          <RawToggle shown={showRaw} onToggle={onToggleRaw} />
          <CopyTextButton value={copyText(state)} testId="interactive-copy" />
        </Group>
      </Group>
      <InteractiveFailures state={state} pending={pending} send={send} />
      <SimpleGrid cols={{ base: 1, md: showRaw ? 2 : 1 }} spacing="md">
        {showRaw && <TextPanel label="Draft" value={screen.draft} testId="interactive-draft" />}
        <TextPanel label="In your Voice" value={screen.rephrased} testId="interactive-rephrased" />
      </SimpleGrid>
      <RevisionControls
        {...{ state, pending, update, send }}
        revision="sectionRevision"
        label="What should change in this section?"
        revise={{ action: 'revise_section', label: 'Revise section' }}
        approve={{ action: 'approve_section', label: screen.isLast ? 'Approve and finish' : 'Approve and continue' }}
      />
    </Stack>
  );
}
