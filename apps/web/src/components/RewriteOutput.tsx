// The box a Voice's rewrite streams into (Convert's output, Create's Rephrased panel): its title
// and status texts, the edited/unedited view toggle after an edit pass, the screen's own actions,
// Copy (Copied for 0.8 s), and the text, editable once nothing streams into it.
import { Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { IconArrowsExchange } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import type { RewriteView } from '../lib/rewrite/use-rewrite-output';
import { CopyTextButton } from './CopyTextButton';

export interface RewriteOutputProps {
  /** Names the status, toggle and copy test ids: `<prefix>-status`, `-view-toggle`, `-copy`. */
  testIdPrefix: string;
  title: string;
  label: string;
  placeholder: string;
  textTestId: string;
  /** The toggle's label while the edited text shows. */
  plainViewLabel: string;
  value: string;
  onChange: (value: string) => void;
  readOnly: boolean;
  statuses: readonly string[];
  /** The current view, or null when no edit pass ran (no toggle then). */
  view: RewriteView | null;
  onToggleView: () => void;
  actions?: ReactNode;
  /** Nothing worth copying (every chunk failed): Copy is off. */
  copyDisabled?: boolean;
}

export function RewriteOutput(props: RewriteOutputProps) {
  const { testIdPrefix, view } = props;
  return (
    <Stack gap="xs">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>{props.title}</Text>
          <Text c="dimmed" fz="sm" data-testid={`${testIdPrefix}-status`} aria-live="polite">
            {props.statuses.join(' ')}
          </Text>
        </Group>
        <Group gap="xs" wrap="wrap">
          {view !== null && (
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconArrowsExchange size={16} />}
              onClick={props.onToggleView}
              data-testid={`${testIdPrefix}-view-toggle`}
            >
              {view === 'mixed' ? props.plainViewLabel : 'View edited'}
            </Button>
          )}
          {props.actions}
          <CopyTextButton value={props.value} testId={`${testIdPrefix}-copy`} disabled={props.copyDisabled ?? false} />
        </Group>
      </Group>
      <Textarea
        aria-label={props.label}
        placeholder={props.placeholder}
        value={props.value}
        onChange={(event) => props.onChange(event.currentTarget.value)}
        readOnly={props.readOnly}
        autosize
        minRows={14}
        maxRows={40}
        data-testid={props.textTestId}
      />
    </Stack>
  );
}
