// "Proofread the rest" on a screen that runs rewrites (Convert, Create's quick mode): a run of its
// own (it aborts the one before, like any run) over the chunks the edit pass left unproofread.
import { useCallback } from 'react';
import type { ConversionAction, ConversionState } from './conversion';
import { proofreadRest } from './proofread-rest';
import type { useRewriteRun } from './use-rewrite-run';

export function useProofreadRest(
  state: ConversionState,
  dispatch: (action: ConversionAction) => void,
  run: ReturnType<typeof useRewriteRun>,
) {
  const { next, calls } = run;
  return useCallback(() => {
    const { runId, controller, release } = next();
    void proofreadRest({ ...calls, runId, state, dispatch, signal: controller.signal }).finally(release);
  }, [next, calls, state, dispatch]);
}
