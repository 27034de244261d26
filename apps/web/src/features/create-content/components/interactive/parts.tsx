// What the interactive screens have in common: the props each receives, and the small pieces that
// several of them show (the raw-draft toggle, a read-only text panel, the revision controls).
import { Box, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import type { InteractiveAction, InteractiveState } from '@ownvoice/shared';
import type { InteractiveScreen } from '../../interactive-view';

export interface ScreenProps<K extends InteractiveScreen['kind']> {
  screen: Extract<InteractiveScreen, { kind: K }>;
  state: InteractiveState;
  /** The action whose call is under way; every action waits while one is. */
  pending: InteractiveAction | null;
  /** Replaces the session locally (answers, outline edits, going back). */
  update: (next: InteractiveState) => void;
  /** Sends the state with an action; the answer becomes the session. */
  send: (from: InteractiveState, action: InteractiveAction) => void;
}

/** The draft beside the Voice's text, or the Voice's text alone (section and complete screens). */
export interface RawDraftProps {
  showRaw: boolean;
  onToggleRaw: () => void;
}

export function RawToggle({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  return (
    <Button size="compact-sm" variant="subtle" onClick={onToggle} data-testid="interactive-raw-toggle">
      {shown ? 'Hide raw draft' : 'Show raw draft'}
    </Button>
  );
}

export function TextPanel({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Text fw={600} fz="sm">
        {label}
      </Text>
      <Textarea aria-label={label} value={value} readOnly autosize minRows={8} maxRows={30} data-testid={testId} />
    </Stack>
  );
}

export function RevisionBox({
  value,
  onChange,
  disabled,
  label,
}: {
  value: string;
  onChange: (value: string) => void;
  disabled: boolean;
  label: string;
}) {
  return (
    <Box>
      <Textarea
        label={label}
        placeholder="Optional: say what to change, then press Revise"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        autosize
        minRows={2}
        maxLength={20_000}
        disabled={disabled}
        data-testid="interactive-revise-input"
      />
    </Box>
  );
}

/**
 * What the outline and section screens end with: a request for a revision, Revise, and Approve.
 * `revision` is the state's field that holds the request.
 */
export function RevisionControls({
  state,
  pending,
  update,
  send,
  revision,
  label,
  revise,
  approve,
}: Pick<ScreenProps<'outline'>, 'state' | 'pending' | 'update' | 'send'> & {
  revision: 'skeletonRevision' | 'sectionRevision';
  label: string;
  revise: { action: InteractiveAction; label: string };
  approve: { action: InteractiveAction; label: string; disabled?: boolean };
}) {
  const busy = pending !== null;
  return (
    <>
      <RevisionBox
        value={state[revision]}
        onChange={(value) => update({ ...state, [revision]: value })}
        disabled={busy}
        label={label}
      />
      <Group gap="xs">
        <Button
          variant="default"
          onClick={() => send(state, revise.action)}
          loading={pending === revise.action}
          disabled={busy}
          data-testid="interactive-revise"
        >
          {revise.label}
        </Button>
        <Button
          onClick={() => send(state, approve.action)}
          loading={pending === approve.action}
          disabled={busy || approve.disabled}
          data-testid="interactive-approve"
        >
          {approve.label}
        </Button>
      </Group>
    </>
  );
}
