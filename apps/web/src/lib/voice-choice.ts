// The Voice that Convert and Create work with, kept the same way on both pages: the choice lives in
// the page's ?loraId= (so a link can preselect it and a reload keeps it), counts only while that
// Voice is awake, and falls back to the only awake Voice when there is exactly one.
import type { Voice } from '@ownvoice/shared';
import { useCallback } from 'react';
import { useSearchParams } from 'react-router';
import { VOICE_PARAM } from './paths';
import { useAwakeVoices } from './use-awake-voices';

/** The chosen Voice while it is awake, else the only awake Voice, else none. */
export function selectedVoiceId(chosenId: string | null, awake: readonly Pick<Voice, '_id'>[]): string | null {
  if (chosenId !== null && awake.some((voice) => voice._id === chosenId)) return chosenId;
  return awake.length === 1 ? (awake[0]?._id ?? null) : null;
}

export function useVoiceChoice() {
  const { awake, query } = useAwakeVoices();
  const [searchParams, setSearchParams] = useSearchParams();
  const selectedId = selectedVoiceId(searchParams.get(VOICE_PARAM), awake);

  const choose = useCallback(
    (id: string | null) => {
      setSearchParams(
        (params) => {
          const next = new URLSearchParams(params);
          if (id) next.set(VOICE_PARAM, id);
          else next.delete(VOICE_PARAM);
          return next;
        },
        { replace: true },
      );
    },
    [setSearchParams],
  );

  return { awake, query, selectedId, choose };
}
