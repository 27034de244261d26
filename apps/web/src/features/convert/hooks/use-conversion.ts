// The screen's conversion: the reducer's state plus `start`, which runs a conversion and aborts
// the one before it (a newer run cancels a stale one), and aborts on leaving the page.
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { editChunk, openConvertStream } from '../../../lib/rewrite/api';
import { conversionReducer, initialConversionState } from '../../../lib/rewrite/conversion';
import { runConversion } from '../../../lib/rewrite/conversion-run';
import { voiceKeys } from '../../../lib/voice-queries';

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
  const queryClient = useQueryClient();
  const controllerRef = useRef<AbortController | null>(null);
  const runIdRef = useRef(0);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const start = useCallback(
    ({ loraId, text, editPassEnabled, onComplete }: StartConversion) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      runIdRef.current += 1;
      void runConversion({
        runId: runIdRef.current,
        loraId,
        text,
        signal: controller.signal,
        dispatch,
        openStream: openConvertStream,
        editChunk,
        editPassEnabled,
        handleInsufficientLimit,
        ...(onComplete ? { onComplete } : {}),
        // A Voice that fell asleep or vanished: the selector should learn about it.
        onRequestRefused: (error) => {
          if (error.status === 404 || error.apiError.code === 'VOICE_NOT_READY') {
            void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
          }
        },
      }).finally(() => {
        if (controllerRef.current === controller) controllerRef.current = null;
      });
    },
    [queryClient],
  );

  return { state, start };
}
