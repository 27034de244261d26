// The interactive writing screen (spec §2, §4 "Interactive flow"): Short or Long, then questions,
// the outline (long mode), each section drafted by the base model and rewritten in the Voice, and
// the whole piece at the end. Every call takes a while: a loader covers the screen and actions wait.
import {
  ActionIcon,
  Alert,
  Box,
  Button,
  Group,
  LoadingOverlay,
  Paper,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import type { InteractiveMode, InteractiveState } from '@ownvoice/shared';
import { IconArrowBackUp, IconInfoCircle, IconPlayerPlay, IconPlus, IconRefresh, IconTrash } from '@tabler/icons-react';
import { useState } from 'react';
import { CopyTextButton } from '../../../components/CopyTextButton';
import { ErrorAlert } from '../../../components/ErrorAlert';
import type { useInteractiveSession } from '../hooks/use-interactive-session';
import {
  addOutlineItem,
  backToEditing,
  copyText,
  interactiveScreen,
  MAX_OUTLINE_ITEMS,
  outlineIsApprovable,
  pieceOf,
  removeOutlineItem,
  setAnswer,
  setOutlineTitle,
  withAllAnswers,
} from '../interactive-view';

type Session = ReturnType<typeof useInteractiveSession>;

const LENGTHS: { value: InteractiveMode; label: string }[] = [
  { value: 'short', label: 'Short' },
  { value: 'long', label: 'Long' },
];

function RawToggle({ shown, onToggle }: { shown: boolean; onToggle: () => void }) {
  return (
    <Button size="compact-sm" variant="subtle" onClick={onToggle} data-testid="interactive-raw-toggle">
      {shown ? 'Hide raw draft' : 'Show raw draft'}
    </Button>
  );
}

function TextPanel({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <Stack gap={4}>
      <Text fw={600} fz="sm">
        {label}
      </Text>
      <Textarea aria-label={label} value={value} readOnly autosize minRows={8} maxRows={30} data-testid={testId} />
    </Stack>
  );
}

export interface InteractiveWriterProps {
  session: Session;
  length: InteractiveMode;
  onLengthChange: (length: InteractiveMode) => void;
  /** Starts a session from the form's prompt and Voice (the page checks them). */
  onStart: () => void;
}

export function InteractiveWriter({ session, length, onLengthChange, onStart }: InteractiveWriterProps) {
  const { state, pending, error, clearError, update, act, reset } = session;
  const [showRaw, setShowRaw] = useState(true);
  const screen = interactiveScreen(state);
  const busy = pending !== null;
  const send = (from: InteractiveState, action: Parameters<Session['act']>[1]) => void act(from, action);

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

        {screen.kind === 'start' && (
          <Stack gap="xs">
            <Text fz="sm">
              {length === 'short'
                ? 'Short: a few questions, then one piece drafted and rewritten in your Voice.'
                : 'Long: a few questions, an outline you can edit, then each section drafted and rewritten in your Voice.'}
            </Text>
            <Button
              leftSection={<IconPlayerPlay size={18} />}
              onClick={onStart}
              loading={pending === 'ask_questions'}
              disabled={busy}
              style={{ alignSelf: 'flex-start' }}
              data-testid="interactive-start"
            >
              Start
            </Button>
          </Stack>
        )}

        {screen.kind === 'questions' && state !== null && (
          <Stack gap="sm">
            <Title order={3} fz="lg">
              {screen.heading}
            </Title>
            {screen.notice && (
              <Alert color="teal" icon={<IconInfoCircle size={20} />} data-testid="interactive-no-questions">
                {screen.notice}
              </Alert>
            )}
            {screen.queries.map((query, index) => (
              <Textarea
                // biome-ignore lint/suspicious/noArrayIndexKey: questions are fixed for the step
                key={index}
                label={query}
                value={screen.answers[index] ?? ''}
                onChange={(event) => update(setAnswer(state, index, event.currentTarget.value))}
                autosize
                minRows={2}
                maxLength={20_000}
                disabled={busy}
                data-testid="interactive-question"
              />
            ))}
            <Button
              onClick={() => send(withAllAnswers(state), screen.submit)}
              loading={pending === screen.submit}
              disabled={busy}
              style={{ alignSelf: 'flex-start' }}
              data-testid="interactive-submit"
            >
              {screen.stage === 'skeleton' ? 'Draft the outline' : 'Draft this section'}
            </Button>
          </Stack>
        )}

        {screen.kind === 'outline' && state !== null && (
          <Stack gap="sm">
            <Title order={3} fz="lg">
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
            <RevisionBox
              value={state.skeletonRevision}
              onChange={(value) => update({ ...state, skeletonRevision: value })}
              disabled={busy}
              label="What should change in the outline?"
            />
            <Group gap="xs">
              <Button
                variant="default"
                onClick={() => send(state, 'revise_skeleton')}
                loading={pending === 'revise_skeleton'}
                disabled={busy}
                data-testid="interactive-revise"
              >
                Revise outline
              </Button>
              <Button
                onClick={() => send(state, 'approve_skeleton')}
                loading={pending === 'approve_skeleton'}
                disabled={busy || !outlineIsApprovable(state)}
                data-testid="interactive-approve"
              >
                Approve outline
              </Button>
            </Group>
          </Stack>
        )}

        {screen.kind === 'section' && state !== null && (
          <Stack gap="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Title order={3} fz="lg" style={{ overflowWrap: 'anywhere' }}>
                {screen.heading}
              </Title>
              <Group gap="xs">
                <RawToggle shown={showRaw} onToggle={() => setShowRaw((value) => !value)} />
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
        )}

        {screen.kind === 'complete' && state !== null && (
          <Stack gap="sm">
            <Group justify="space-between" gap="xs" wrap="wrap">
              <Title order={3} fz="lg">
                Your piece
              </Title>
              <Group gap="xs">
                <RawToggle shown={showRaw} onToggle={() => setShowRaw((value) => !value)} />
                <CopyTextButton value={screen.piece} testId="interactive-copy" />
              </Group>
            </Group>
            <SimpleGrid cols={{ base: 1, md: showRaw ? 2 : 1 }} spacing="md">
              {showRaw && <TextPanel label="Draft" value={pieceOf(state, 'draft')} testId="interactive-draft" />}
              <TextPanel label="In your Voice" value={screen.piece} testId="interactive-complete" />
            </SimpleGrid>
            <Group gap="xs">
              <Button
                variant="default"
                leftSection={<IconArrowBackUp size={16} />}
                onClick={() => update(backToEditing(state))}
                data-testid="interactive-back"
              >
                Back to editing
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

function RevisionBox({
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
