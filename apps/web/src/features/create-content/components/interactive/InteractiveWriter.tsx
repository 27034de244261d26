// The interactive writing screen: Short or Long, then questions, the outline (long mode), each
// section drafted by the base model and rewritten in the Voice, and the whole piece at the end.
// This shell holds what every step shares; each step is its own screen. Every call takes a while:
// a loader covers the screen and actions wait.
import { Button, Group, LoadingOverlay, Paper, SegmentedControl, Stack, Text } from '@mantine/core';
import type { InteractiveAction, InteractiveMode, InteractiveState } from '@ownvoice/shared';
import { IconRefresh } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '../../../../components/ErrorAlert';
import type { useInteractiveSession } from '../../hooks/use-interactive-session';
import { interactiveScreen } from '../../interactive-view';
import { CompleteScreen } from './CompleteScreen';
import { OutlineScreen } from './OutlineScreen';
import { QuestionsScreen } from './QuestionsScreen';
import { SectionScreen } from './SectionScreen';
import { StartScreen } from './StartScreen';

type Session = ReturnType<typeof useInteractiveSession>;

const LENGTHS: { value: InteractiveMode; label: string }[] = [
  { value: 'short', label: 'Short' },
  { value: 'long', label: 'Long' },
];

export interface InteractiveWriterProps {
  session: Session;
  length: InteractiveMode;
  onLengthChange: (length: InteractiveMode) => void;
  /** Starts a session from the form's prompt and Voice (the page checks them). */
  onStart: () => void;
}

export function InteractiveWriter({ session, length, onLengthChange, onStart }: InteractiveWriterProps) {
  const { state, pending, error, clearError, update, act, reset } = session;
  // Kept here, so the choice carries from the last section to the complete piece.
  const [showRaw, setShowRaw] = useState(true);
  const busy = pending !== null;
  const send = (from: InteractiveState, action: InteractiveAction) => void act(from, action);
  const raw = { showRaw, onToggleRaw: () => setShowRaw((value) => !value) };

  return (
    <Paper
      withBorder
      p={{ base: 'sm', sm: 'lg' }}
      pos="relative"
      data-testid="interactive-step"
      data-step={state?.step ?? 'init'}
    >
      <LoadingOverlay visible={busy} zIndex={5} overlayProps={{ blur: 1 }} loaderProps={{ type: 'dots' }} />
      <Stack gap="md">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <SegmentedControl
            value={length}
            onChange={(value) => onLengthChange(value as InteractiveMode)}
            data={LENGTHS}
            disabled={busy}
            data-testid="interactive-length"
          />
          {state !== null && (
            <Button
              size="compact-sm"
              variant="default"
              leftSection={<IconRefresh size={16} />}
              onClick={reset}
              data-testid="interactive-new"
            >
              Start new
            </Button>
          )}
        </Group>
        {state !== null && (
          <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            Prompt: {state.request.prompt}
          </Text>
        )}
        <ErrorAlert message={error} onClose={clearError} />
        {state === null ? (
          <StartScreen length={length} pending={pending} onStart={onStart} />
        ) : (
          <StepScreen
            state={state}
            pending={pending}
            update={update}
            send={send}
            length={length}
            onStart={onStart}
            raw={raw}
          />
        )}
      </Stack>
    </Paper>
  );
}

interface StepScreenProps {
  state: InteractiveState;
  pending: InteractiveAction | null;
  update: (next: InteractiveState) => void;
  send: (from: InteractiveState, action: InteractiveAction) => void;
  length: InteractiveMode;
  onStart: () => void;
  raw: { showRaw: boolean; onToggleRaw: () => void };
}

/** The screen for the session's step. */
function StepScreen({ state, pending, update, send, length, onStart, raw }: StepScreenProps) {
  const screen = interactiveScreen(state);
  const common = { state, pending, update, send };
  switch (screen.kind) {
    case 'start':
      return <StartScreen length={length} pending={pending} onStart={onStart} />;
    case 'questions':
      return <QuestionsScreen screen={screen} {...common} />;
    case 'outline':
      return <OutlineScreen screen={screen} {...common} />;
    case 'section':
      return <SectionScreen screen={screen} {...common} {...raw} />;
    case 'complete':
      return <CompleteScreen screen={screen} {...common} {...raw} />;
  }
}
