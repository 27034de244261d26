// Quick mode's run: the draft and the rewrite (the shared conversion reducer), plus `generate`,
// which streams a new draft and its rewrite, and `rerephrase`, which rewrites the current draft
// again through the convert stream. A newer run aborts the one before it; leaving the page aborts.
import { useCallback, useReducer } from 'react';
import { openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
import { useRewriteRun } from '../../../lib/rewrite/use-rewrite-run';
import { type GenerateRequest, openGenerateStream } from '../api';
import { runCreate } from '../create-run';
import { draftReducer, initialDraftState } from '../draft';

export interface StartGenerate {
  loraId: string;
  request: Omit<GenerateRequest, 'signal' | 'loraId'>;
  /** Read when the rewrite completes. */
  editPassEnabled(): boolean;
  onComplete?(): void;
}

export interface StartRerephrase {
  loraId: string;
  draft: string;
  editPassEnabled(): boolean;
}

export function useCreateRun() {
  const [draft, dispatchDraft] = useReducer(draftReducer, initialDraftState);
  const [rewrite, dispatch] = useReducer(conversionReducer, initialConversionState);
  const { next, calls } = useRewriteRun();

  const generate = useCallback(
    ({ loraId, request, editPassEnabled, onComplete }: StartGenerate) => {
      const { runId, controller, release } = next();
      void runCreate({
        ...calls,
        runId,
        loraId,
        request,
        signal: controller.signal,
        dispatch,
        dispatchDraft,
        openGenerateStream,
        editPassEnabled,
        ...(onComplete ? { onComplete } : {}),
      }).finally(release);
    },
    [next, calls],
  );

  const rerephrase = useCallback(
    ({ loraId, draft: text, editPassEnabled }: StartRerephrase) => {
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
      }).finally(release);
    },
    [next, calls],
  );

  return { draft, rewrite, generate, rerephrase };
}
