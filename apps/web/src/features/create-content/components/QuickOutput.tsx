// Quick mode under the form: why the rewrite failed, what the run was charged, which parts did
// not come out in the Voice (with their retry), and the Original and Rephrased panels.
import { Text } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { ProofreadRestButton } from '../../../components/ProofreadRestButton';
import { RewriteFailures } from '../../../components/RewriteFailures';
import { hasUsableRewrite } from '../../../lib/rewrite/conversion';
import type { useCreateRun } from '../hooks/use-create-run';
import { canRerephrase, chargeNote, createStatusTexts } from '../quick-view';
import { QuickPanels } from './QuickPanels';

export interface QuickOutputProps {
  run: ReturnType<typeof useCreateRun>;
  /** No Voice chosen: nothing to re-rephrase with. */
  noVoice: boolean;
  onRerephrase: () => void;
  onRetry: () => void;
}

export function QuickOutput({ run, noVoice, onRerephrase, onRetry }: QuickOutputProps) {
  const { draft, rewrite, output } = run;
  const charge = chargeNote(draft);
  return (
    <>
      {rewrite.phase === 'error' && <ErrorAlert message={rewrite.error} />}
      {charge && (
        <Text size="sm" c="dimmed" data-testid="create-charge">
          {charge}
        </Text>
      )}
      <RewriteFailures
        rewrite={rewrite}
        onRetry={onRetry}
        subject="draft"
        allFailedNote="No part came out in your Voice, so nothing was charged for it. Retry those parts, or generate again."
      />
      <QuickPanels
        draft={draft}
        rephrased={output.text}
        onRephrasedChange={output.edit}
        rephrasedReadOnly={run.busy}
        statuses={createStatusTexts(draft, rewrite)}
        view={output.view}
        onToggleView={output.toggleView}
        onRerephrase={onRerephrase}
        rerephraseDisabled={!canRerephrase(draft, rewrite) || noVoice}
        copyDisabled={rewrite.phase === 'complete' && !hasUsableRewrite(rewrite)}
        proofreadRest={<ProofreadRestButton rewrite={rewrite} busy={run.busy} onProofread={run.proofreadRest} />}
      />
    </>
  );
}
