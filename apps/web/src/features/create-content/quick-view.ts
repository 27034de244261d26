// What Quick mode shows from its two states (the draft and the shared rewrite state): the status
// texts beside the Rephrased panel, the Generate button's label, and whether re-rephrase may run.
import { type ConversionState, isBusy, runPhase, statusTexts } from '../../lib/rewrite/conversion';
import { CREATE_CHARGE, GENERATE_LABELS } from './constants';
import type { DraftState } from './draft';

const isGenerating = (draft: DraftState, rewrite: ConversionState): boolean =>
  draft.phase === 'generating' && rewrite.phase === 'streaming';

/** The rewrite's status texts; none while the draft is still being written. */
export function createStatusTexts(draft: DraftState, rewrite: ConversionState): string[] {
  if (isGenerating(draft, rewrite)) return [];
  return statusTexts(rewrite);
}

export function generateLabel(draft: DraftState, rewrite: ConversionState): string {
  if (isGenerating(draft, rewrite)) return GENERATE_LABELS.generating;
  const phase = runPhase(rewrite);
  if (phase === 'streaming') return GENERATE_LABELS.rephrasing;
  if (phase === 'editing') return GENERATE_LABELS.editing;
  return GENERATE_LABELS.idle;
}

/** Something is running (generation, rewrite or edit pass). */
export const isCreateBusy = (draft: DraftState, rewrite: ConversionState): boolean =>
  isBusy(rewrite) || draft.phase === 'generating';

/** Re-rephrase needs a whole draft and nothing running. */
export const canRerephrase = (draft: DraftState, rewrite: ConversionState): boolean =>
  draft.phase === 'drafted' && draft.draft.trim() !== '' && !isCreateBusy(draft, rewrite);

/** What the run was charged, once the server said it; null before (or from a server that did not). */
export function chargeNote(draft: DraftState): string | null {
  if (draft.charged === undefined) return null;
  return draft.charged === 0 ? CREATE_CHARGE.notCharged : CREATE_CHARGE.charged;
}
