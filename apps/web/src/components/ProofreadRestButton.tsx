// Beside a rewrite's output (Convert, Create's quick mode): when the edit pass left chunks
// unproofread (it ran out of proofreads, or the page was left mid-pass), one click proofreads just
// those, after a top-up say, instead of converting everything again.
import { Button } from '@mantine/core';
import { IconChecks } from '@tabler/icons-react';
import { type ConversionState, unproofreadIndexes } from '../lib/rewrite/conversion';

export interface ProofreadRestButtonProps {
  rewrite: ConversionState;
  busy: boolean;
  onProofread: () => void;
}

export function ProofreadRestButton({ rewrite, busy, onProofread }: ProofreadRestButtonProps) {
  const left = unproofreadIndexes(rewrite).length;
  if (left === 0 || busy) return null;
  return (
    <Button
      size="compact-sm"
      variant="light"
      leftSection={<IconChecks size={16} />}
      onClick={onProofread}
      data-testid="proofread-rest"
    >
      {left === 1 ? 'Proofread the chunk left' : `Proofread the ${left} chunks left`}
    </Button>
  );
}
