// What every screen that runs a rewrite needs (Convert, Create's quick mode): one run at a time (a
// newer run aborts the one before it, leaving the page aborts the last), the calls a run makes,
// with a refused request about a sleeping or vanished Voice refreshing the Voice list, and the
// screen's variations, so each Re-rephrase or retry asks for a rewrite the earlier ones were not.
import { remainingOf } from '@ownvoice/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef } from 'react';
import { handleInsufficientLimit } from '../purchase-prompt';
import { useSession } from '../session/session-context';
import { voiceKeys } from '../voice-queries';
import { editChunk } from './api';
import type { ConvertRequestError } from './errors';
import { planProofreads } from './proofread-plan';

export function useRewriteRun() {
  const queryClient = useQueryClient();
  const { refresh } = useSession();
  const controllerRef = useRef<AbortController | null>(null);
  const runIdRef = useRef(0);
  const variationRef = useRef(0);

  useEffect(() => () => controllerRef.current?.abort(), []);

  /** Starts a run: aborts the current one; `release` is called when the new one settles. */
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

  const calls = useMemo(
    () => ({
      editChunk,
      handleInsufficientLimit,
      // What is left now, read afresh: the pass is planned against it before any is spent.
      planEditPass: async (needed: number) => {
        const user = await refresh().catch(() => null);
        return user ? planProofreads(needed, remainingOf(user.usageLimits.chunkEdits, new Date())) : needed;
      },
      // A Voice that fell asleep or vanished: the selectors should learn about it.
      onRequestRefused: (error: ConvertRequestError) => {
        if (error.status === 404 || error.apiError.code === 'VOICE_NOT_READY') {
          void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
        }
      },
    }),
    [queryClient, refresh],
  );

  const nextVariation = useCallback(() => {
    variationRef.current += 1;
    return variationRef.current;
  }, []);

  return { next, calls, nextVariation };
}
