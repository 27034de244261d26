// "Retry failed parts" on a screen that runs rewrites (Convert, Create's quick mode): a run of its
// own (it aborts the one before, like any run) that rewrites just the failed chunks of the last
// result with a new variation, and proofreads them when the edit-pass box is ticked.
import { useCallback } from 'react';
import { openConvertStream } from './api';
import type { ConversionAction, ConversionState } from './conversion';
import { retryFailedChunks } from './retry-chunks';
import type { useRewriteRun } from './use-rewrite-run';

export function useRetryFailed(
  state: ConversionState,
  dispatch: (action: ConversionAction) => void,
  run: ReturnType<typeof useRewriteRun>,
  resetOutput: () => void,
) {
  const { next, calls, nextVariation } = run;
  return useCallback(
    (loraId: string, editPassEnabled: () => boolean) => {
      resetOutput();
      const { runId, controller, release } = next();
      void retryFailedChunks({
        ...calls,
        runId,
        loraId,
        state,
        variation: nextVariation(),
        signal: controller.signal,
        dispatch,
        openStream: openConvertStream,
        editPassEnabled,
      }).finally(release);
    },
    [next, calls, nextVariation, state, dispatch, resetOutput],
  );
}
