// The outline (long mode): edit, add or remove section titles, ask for a revision, or approve it.
import { ActionIcon, Button, Group, Stack, TextInput, Title } from '@mantine/core';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import {
  addOutlineItem,
  MAX_OUTLINE_ITEMS,
  outlineIsApprovable,
  removeOutlineItem,
  setOutlineTitle,
} from '../../interactive-view';
import { RevisionControls, type ScreenProps } from './parts';

export function OutlineScreen({ screen, state, pending, update, send }: ScreenProps<'outline'>) {
  const busy = pending !== null;
  return (
    <Stack gap="sm">
      <Title order={2} fz="lg">
        Outline
      </Title>
      {screen.titles.map((title, index) => (
        <Group
          // biome-ignore lint/suspicious/noArrayIndexKey: outline items have no identity beyond their place
          key={index}
          gap="xs"
          wrap="nowrap"
        >
          <TextInput
            aria-label={`Section ${index + 1} title`}
            value={title}
            onChange={(event) => update(setOutlineTitle(state, index, event.currentTarget.value))}
            maxLength={200}
            disabled={busy}
            style={{ flex: 1, minWidth: 0 }}
            data-testid="interactive-outline-item"
          />
          <ActionIcon
            variant="subtle"
            color="red"
            aria-label={`Remove section ${index + 1}`}
            onClick={() => update(removeOutlineItem(state, index))}
            disabled={busy}
          >
            <IconTrash size={18} />
          </ActionIcon>
        </Group>
      ))}
      <Button
        size="compact-sm"
        variant="subtle"
        leftSection={<IconPlus size={16} />}
        onClick={() => update(addOutlineItem(state))}
        disabled={busy || screen.titles.length >= MAX_OUTLINE_ITEMS}
        style={{ alignSelf: 'flex-start' }}
      >
        Add section
      </Button>
      <RevisionControls
        {...{ state, pending, update, send }}
        revision="skeletonRevision"
        label="What should change in the outline?"
        revise={{ action: 'revise_skeleton', label: 'Revise outline' }}
        approve={{ action: 'approve_skeleton', label: 'Approve outline', disabled: !outlineIsApprovable(state) }}
      />
    </Stack>
  );
}
