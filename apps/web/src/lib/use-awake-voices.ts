// The Voices Convert and Create can use: the user's list (shared cache with the dashboard), awake ones only.
import type { Voice } from '@ownvoice/shared';
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchMyVoices, voiceKeys } from './voice-queries';

const NO_VOICES: Voice[] = [];

export function useAwakeVoices() {
  const query = useQuery({ queryKey: voiceKeys.mine, queryFn: ({ signal }) => fetchMyVoices(signal) });
  const voices = query.data ?? NO_VOICES;
  const awake = useMemo(() => voices.filter((voice) => voice.status === 'active'), [voices]);
  return { awake, query };
}
