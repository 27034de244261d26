// The screen's conversion: the reducer's state, the output box's text (useRewriteOutput),
// `start`, which clears what was typed over the last output, runs a conversion and aborts the one
// before it (a newer run cancels a stale one), and `retryFailed`, which rewrites again just the
// chunks that failed, and `proofreadRest`, which proofreads what the edit pass left unproofread.
// A rewrite the page kept (a checkout round trip, a reload) is where it starts. Leaving the page aborts.
import { useCallback, useReducer } from 'react';
import { openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState, isBusy } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
import { type KeptRewrite, restoredRewrite } from '../../../lib/rewrite/kept-rewrite';
import { useProofreadRest } from '../../../lib/rewrite/use-proofread-rest';
import { useRetryFailed } from '../../../lib/rewrite/use-retry-failed';
import { useRewriteOutput } from '../../../lib/rewrite/use-rewrite-output';
import { useRewriteRun } from '../../../lib/rewrite/use-rewrite-run';

export interface StartConversion {
  loraId: string;
  /** The editor's markdown. */
  text: string;
  /** Read when the conversion completes. */
  editPassEnabled(): boolean;
  /** Called when the conversion completed (before any edit pass). */
  onComplete?(): void;
}

export function useConversion(kept: KeptRewrite | null) {
  const [state, dispatch] = useReducer(conversionReducer, kept, (from) =>
    from ? restoredRewrite(from) : initialConversionState,
  );
  const rewriteRun = useRewriteRun();
  const { next, calls } = rewriteRun;
  const output = useRewriteOutput(state, kept?.edits);
  const resetOutput = output.reset;
  const retryFailed = useRetryFailed(state, dispatch, rewriteRun, resetOutput);
  const proofreadRest = useProofreadRest(state, dispatch, rewriteRun);

  const start = useCallback(
    ({ loraId, text, editPassEnabled, onComplete }: StartConversion) => {
      resetOutput();
      const { runId, controller, release } = next();
      void runConversion({
        ...calls,
        runId,
        loraId,
        text,
        signal: controller.signal,
        dispatch,
        openStream: openConvertStream,
        editPassEnabled,
        ...(onComplete ? { onComplete } : {}),
      }).finally(release);
    },
    [next, calls, resetOutput],
  );

  return { state, output, busy: isBusy(state), start, retryFailed, proofreadRest };
}
