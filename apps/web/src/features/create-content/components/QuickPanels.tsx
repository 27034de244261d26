// Quick mode's panels: the Original (the draft as it streams, with the
// thinking process folded away) beside the Rephrased (the Voice's rewrite as its chunks stream,
// the edited/unedited view toggle, re-rephrase, the editing progress and Copy).
import { Box, Button, Collapse, Group, Paper, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { IconBrain, IconChevronDown, IconChevronUp, IconRefresh } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { RewriteOutput } from '../../../components/RewriteOutput';
import type { RewriteView } from '../../../lib/rewrite/use-rewrite-output';
import type { DraftState } from '../draft';
import { draftStatus } from '../draft';

function Thinking({ draft }: { draft: DraftState }) {
  const [choice, setChoice] = useState<{ runId: number; open: boolean } | null>(null);
  // Open while the model thinks, unless the user chose otherwise for this run.
  const open = choice?.runId === draft.runId ? choice.open : draft.thinkingActive;
  if (draft.thinking === '' && !draft.thinkingActive) return null;
  return (
    <Box data-testid="create-thinking">
      <Button
        variant="subtle"
        size="compact-sm"
        leftSection={<IconBrain size={16} />}
        rightSection={open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        onClick={() => setChoice({ runId: draft.runId, open: !open })}
        aria-expanded={open}
        data-testid="create-thinking-toggle"
      >
        Thinking process
      </Button>
      <Collapse in={open}>
        <Paper withBorder p="sm" mt={4} bg="gray.0">
          <Text fz="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {draft.thinking}
          </Text>
        </Paper>
      </Collapse>
    </Box>
  );
}

export interface QuickPanelsProps {
  draft: DraftState;
  rephrased: string;
  onRephrasedChange: (value: string) => void;
  rephrasedReadOnly: boolean;
  statuses: readonly string[];
  /** The current view, or null when no edit pass ran (no toggle then). */
  view: RewriteView | null;
  onToggleView: () => void;
  onRerephrase: () => void;
  rerephraseDisabled: boolean;
  /** Every chunk of the rewrite failed: nothing to copy. */
  copyDisabled: boolean;
  /** Proofreading what the edit pass left, when it left any. */
  proofreadRest?: ReactNode;
}

export function QuickPanels({
  draft,
  rephrased,
  onRephrasedChange,
  rephrasedReadOnly,
  statuses,
  view,
  onToggleView,
  onRerephrase,
  rerephraseDisabled,
  copyDisabled,
  proofreadRest,
}: QuickPanelsProps) {
  const status = draftStatus(draft);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
      <Stack gap="xs">
        <Group gap="xs" wrap="wrap">
          <Text fw={600}>Original</Text>
          {status && (
            <Text c="dimmed" fz="sm">
              {status}
            </Text>
          )}
        </Group>
        <Thinking draft={draft} />
        <Textarea
          aria-label="Original draft"
          placeholder="The draft appears here."
          value={draft.draft}
          readOnly
          autosize
          minRows={14}
          maxRows={40}
          data-testid="create-original"
        />
      </Stack>
      <RewriteOutput
        testIdPrefix="create"
        title="Rephrased"
        label="Rephrased text"
        placeholder="The draft, in your Voice, appears here."
        textTestId="create-rephrased"
        plainViewLabel="View unedited"
        value={rephrased}
        onChange={onRephrasedChange}
        readOnly={rephrasedReadOnly}
        statuses={statuses}
        view={view}
        onToggleView={onToggleView}
        copyDisabled={copyDisabled}
        actions={
          <>
            {proofreadRest}
            <Button
              size="compact-sm"
              variant="subtle"
              leftSection={<IconRefresh size={16} />}
              onClick={onRerephrase}
              disabled={rerephraseDisabled}
              data-testid="create-rerephrase"
            >
              Re-rephrase
            </Button>
          </>
        }
      />
    </SimpleGrid>
  );
}
