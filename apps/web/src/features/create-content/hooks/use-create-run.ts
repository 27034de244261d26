// Quick mode's run: the draft and the rewrite (the shared conversion reducer), plus `generate`,
// which streams a new draft and its rewrite, and `rerephrase`, which rewrites the current draft
// again through the convert stream. A newer run aborts the one before it; leaving the page aborts.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { editChunk, openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
import type { ConvertRequestError } from '../../../lib/rewrite/errors';
import { voiceKeys } from '../../../lib/voice-queries';
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
  const queryClient = useQueryClient();
  const controllerRef = useRef<AbortController | null>(null);
  const runIdRef = useRef(0);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const next = useCallback(() => {
    controllerRef.current?.abort();
    const controller = new AbortController();
    controllerRef.current = controller;
    runIdRef.current += 1;
    const release = () => {
      if (controllerRef.current === controller) controllerRef.current = null;
    };
    return { runId: runIdRef.current, controller, release };
  }, []);

  // A Voice that fell asleep or vanished: the selector should learn about it.
  const onRequestRefused = useCallback(
    (error: ConvertRequestError) => {
      if (error.status === 404 || error.apiError.code === 'VOICE_NOT_READY') {
        void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
      }
    },
    [queryClient],
  );

  const generate = useCallback(
    ({ loraId, request, editPassEnabled, onComplete }: StartGenerate) => {
      const { runId, controller, release } = next();
      void runCreate({
        runId,
        loraId,
        request,
        signal: controller.signal,
        dispatch,
        dispatchDraft,
        openGenerateStream,
        editChunk,
        editPassEnabled,
        handleInsufficientLimit,
        onRequestRefused,
        ...(onComplete ? { onComplete } : {}),
      }).finally(release);
    },
    [next, onRequestRefused],
  );

  const rerephrase = useCallback(
    ({ loraId, draft: text, editPassEnabled }: StartRerephrase) => {
      const { runId, controller, release } = next();
      void runConversion({
        runId,
        loraId,
        text,
        signal: controller.signal,
        dispatch,
        openStream: openConvertStream,
        editChunk,
        editPassEnabled,
        handleInsufficientLimit,
        onRequestRefused,
      }).finally(release);
    },
    [next, onRequestRefused],
  );

  return { draft, rewrite, generate, rerephrase };
}
