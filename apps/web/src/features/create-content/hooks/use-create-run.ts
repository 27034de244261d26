// Quick mode's run: the draft and the rewrite (the shared conversion reducer), the Rephrased
// panel's text (useRewriteOutput), plus `generate`, which streams a new draft and its rewrite,
// `rerephrase`, which rewrites the current draft again through the convert stream (a new variation
// each time, so it can come out differently), and `retryFailed`, which rewrites again just the
// chunks that failed. Each clears what was typed over the last output; a newer run aborts the one
// before it; leaving the page aborts. `proofreadRest` proofreads what the edit pass left unproofread.
// What the page kept (a checkout round trip, a reload) is where it starts.
import { useCallback, useReducer } from 'react';
import { openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
import { restoredRewrite } from '../../../lib/rewrite/kept-rewrite';
import { useProofreadRest } from '../../../lib/rewrite/use-proofread-rest';
import { useRetryFailed } from '../../../lib/rewrite/use-retry-failed';
import { useRewriteOutput } from '../../../lib/rewrite/use-rewrite-output';
import { useRewriteRun } from '../../../lib/rewrite/use-rewrite-run';
import { type GenerateRequest, openGenerateStream } from '../api';
import { runCreate } from '../create-run';
import { draftReducer } from '../draft';
import { type KeptCreate, restoredDraft } from '../kept-create';
import { isCreateBusy } from '../quick-view';

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

export function useCreateRun(kept: KeptCreate | null) {
  const [draft, dispatchDraft] = useReducer(draftReducer, kept?.draft ?? null, restoredDraft);
  const [rewrite, dispatch] = useReducer(conversionReducer, kept?.rewrite ?? null, (from) =>
    from ? restoredRewrite(from) : initialConversionState,
  );
  const rewriteRun = useRewriteRun();
  const { next, calls, nextVariation } = rewriteRun;
  const output = useRewriteOutput(rewrite, kept?.rewrite?.edits);
  const resetOutput = output.reset;

  const generate = useCallback(
    ({ loraId, request, editPassEnabled, onComplete }: StartGenerate) => {
      resetOutput();
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
    [next, calls, resetOutput],
  );

  const rerephrase = useCallback(
    ({ loraId, draft: text, editPassEnabled }: StartRerephrase) => {
      resetOutput();
      const { runId, controller, release } = next();
      const seed = nextVariation();
      void runConversion({
        ...calls,
        runId,
        loraId,
        text,
        signal: controller.signal,
        dispatch,
        openStream: (request) => openConvertStream({ ...request, variation: seed }),
        editPassEnabled,
      }).finally(release);
    },
    [next, calls, nextVariation, resetOutput],
  );

  const retryFailed = useRetryFailed(rewrite, dispatch, rewriteRun, resetOutput);
  const proofreadRest = useProofreadRest(rewrite, dispatch, rewriteRun);

  return {
    draft,
    rewrite,
    output,
    busy: isCreateBusy(draft, rewrite),
    generate,
    rerephrase,
    retryFailed,
    proofreadRest,
  };
}
