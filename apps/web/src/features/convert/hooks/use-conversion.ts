// The screen's conversion: the reducer's state, the output box's text (useRewriteOutput),
// `start`, which clears what was typed over the last output, runs a conversion and aborts the one
// before it (a newer run cancels a stale one), and `retryFailed`, which rewrites again just the
// chunks that failed. Leaving the page aborts.
import { useCallback, useReducer } from 'react';
import { openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState, isBusy } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
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

export function useConversion() {
  const [state, dispatch] = useReducer(conversionReducer, initialConversionState);
  const rewriteRun = useRewriteRun();
  const { next, calls } = rewriteRun;
  const output = useRewriteOutput(state);
  const resetOutput = output.reset;
  const retryFailed = useRetryFailed(state, dispatch, rewriteRun, resetOutput);

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

  return { state, output, busy: isBusy(state), start, retryFailed };
}
