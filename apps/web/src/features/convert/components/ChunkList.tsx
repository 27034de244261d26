// The chunks of the last run, folded away by default: what each one was, became (or that it could
// not be rewritten) and, after the edit pass, whether its proofread worked (and why not).
import { Badge, Button, Collapse, Paper, Stack, Text } from '@mantine/core';
import { IconChevronDown, IconChevronUp } from '@tabler/icons-react';
import { useState } from 'react';
import {
  type Chunk,
  type ChunkStatus,
  isNotRewritten,
  isUnchangedEdit,
  rerollPlaceholder,
} from '../../../lib/rewrite/conversion';

const STATUS_COLORS: Record<ChunkStatus, string> = {
  streaming: 'blue',
  ready: 'gray',
  editing: 'violet',
  edited: 'teal',
  failed: 'red',
  unproofread: 'orange',
};

const STATUS_WORDS: Record<ChunkStatus, string> = {
  streaming: 'streaming',
  ready: 'ready',
  editing: 'editing',
  edited: 'edited',
  failed: 'failed',
  unproofread: 'not proofread',
};

function ChunkItem({ chunk }: { chunk: Chunk }) {
  const placeholder = rerollPlaceholder(chunk);
  const notRewritten = isNotRewritten(chunk);
  return (
    <Paper withBorder p="sm" data-testid="convert-chunk" data-status={notRewritten ? 'not-rewritten' : chunk.status}>
      <Stack gap={6}>
        <Text fz="xs" c="dimmed">
          Chunk {chunk.index + 1}{' '}
          <Badge component="span" size="xs" variant="light" color={notRewritten ? 'red' : STATUS_COLORS[chunk.status]}>
            {notRewritten ? 'not rewritten' : isUnchangedEdit(chunk) ? 'edited: no change' : STATUS_WORDS[chunk.status]}
          </Badge>
          {chunk.attempts > 1 && ` attempt ${chunk.attempts}`}
        </Text>
        <Text fz="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
          {chunk.original}
        </Text>
        <Text fz="sm" style={{ whiteSpace: 'pre-wrap' }}>
          {chunk.edited ?? (chunk.rephrased || placeholder)}
        </Text>
        {chunk.status === 'failed' && chunk.error && (
          <Text fz="xs" c="red">
            {chunk.error}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}

export function ChunkList({ chunks }: { chunks: readonly Chunk[] }) {
  const [open, setOpen] = useState(false);
  if (chunks.length === 0) return null;
  const notRewritten = chunks.filter(isNotRewritten).length;
  const notProofread = chunks.filter((chunk) => chunk.status === 'failed' || chunk.status === 'unproofread').length;
  const problems = [
    notRewritten > 0 ? `${notRewritten} not rewritten` : null,
    notProofread > 0 ? `${notProofread} not proofread` : null,
  ].filter((problem) => problem !== null);
  return (
    <Stack gap="xs">
      <Button
        variant="subtle"
        size="compact-sm"
        onClick={() => setOpen((value) => !value)}
        rightSection={open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
        style={{ alignSelf: 'flex-start' }}
        aria-expanded={open}
      >
        {open ? 'Hide' : 'Show'} chunks ({chunks.length}){problems.map((problem) => `, ${problem}`).join('')}
      </Button>
      <Collapse in={open}>
        <Stack gap="xs">
          {chunks.map((chunk) => (
            <ChunkItem key={chunk.index} chunk={chunk} />
          ))}
        </Stack>
      </Collapse>
    </Stack>
  );
}
