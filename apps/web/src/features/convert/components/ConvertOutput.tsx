// The right box of Convert (spec §2): the converted text, editable once nothing streams into it,
// the status texts, the view toggle after an edit pass, and Copy (Copied for 0.8 s).
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import { CopyTextButton } from '../../../components/CopyTextButton';

export type OutputView = 'mixed' | 'rephrased';

export interface ConvertOutputProps {
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  statuses: readonly string[];
  /** The current view, or null when no edit pass ran (no toggle then). */
  view: OutputView | null;
  onToggleView: () => void;
}

export function ConvertOutput({ value, onChange, readOnly, statuses, view, onToggleView }: ConvertOutputProps) {
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>Converted text</Text>
          <Text c="dimmed" fz="sm" data-testid="convert-status" aria-live="polite">
            {statuses.join(' ')}
          </Text>
        </Group>
        <Group gap="xs">
          {view !== null && (
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconArrowsExchange size={16} />}
              onClick={onToggleView}
              data-testid="convert-view-toggle"
            >
              {view === 'mixed' ? 'View rephrased' : 'View edited'}
            </Button>
          )}
          <CopyTextButton value={value} testId="convert-copy" />
        </Group>
      </Group>
      <Textarea
        aria-label="Converted text"
        placeholder="Your text, in your Voice, appears here."
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        readOnly={readOnly}
        autosize
        minRows={14}
        maxRows={40}
        data-testid="convert-output"
      />
    </Stack>
  );
}
