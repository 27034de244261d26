// The screen's conversion: the reducer's state, the output box's text (useRewriteOutput) and
// `start`, which clears what was typed over the last output, runs a conversion and aborts the one
// before it (a newer run cancels a stale one), and aborts on leaving the page.
import { useCallback, useReducer } from 'react';
import { openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState, isBusy } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
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
  const { next, calls } = useRewriteRun();
  const output = useRewriteOutput(state);
  const resetOutput = output.reset;

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

  return { state, output, busy: isBusy(state), start };
}
