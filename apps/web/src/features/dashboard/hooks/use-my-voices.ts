// The dashboard's Voice list: the server's list with optimistic overrides on top, refetched every
// 10 s while the page is visible and something moves or changed lately.
import { useDocumentVisibility } from '@mantine/hooks';
import type { Voice } from '@ownvoice/shared';
import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { fetchMyVoices, voiceKeys } from '../../../lib/voice-queries';
import {
  applyOverrides,
  holdField,
  nextHoldExpiry,
  pruneOverrides,
  releaseField,
  type VoiceOverride,
  type VoiceOverrides,
} from '../optimistic-hold';
import { voiceListPollInterval } from '../voice-polling';

const NO_VOICES: Voice[] = [];

export interface VoiceHolds {
  hold<K extends keyof VoiceOverride>(id: string, field: K, held: NonNullable<VoiceOverride[K]>): void;
  release(id: string, field: keyof VoiceOverride): void;
  /** Starts the 10 s window in which the list keeps polling after a change. */
  markChanged(): void;
}

export function useMyVoices() {
  const visible = useDocumentVisibility() === 'visible';
  const [overrides, setOverrides] = useState<VoiceOverrides>({});
  const [lastChangeAt, setLastChangeAt] = useState<number | null>(null);

  const query = useQuery({
    queryKey: voiceKeys.mine,
    queryFn: ({ signal }) => fetchMyVoices(signal),
    // Evaluated after every fetch and render, so it follows visibility, statuses and changes.
    refetchInterval: (current) => {
      const now = Date.now();
      const statuses = applyOverrides(current.state.data ?? NO_VOICES, overrides, now).map((v) => v.status);
      return voiceListPollInterval({ visible, statuses, lastChangeAt, now });
    },
  });
  const serverVoices = query.data ?? NO_VOICES;

  // Each answer may settle some holds.
  useEffect(() => {
    setOverrides((current) => pruneOverrides(current, serverVoices, Date.now()));
  }, [serverVoices]);

  // A hold that runs out without a new answer still has to end on screen.
  useEffect(() => {
    const expiry = nextHoldExpiry(overrides);
    if (expiry === null) return;
    const timer = setTimeout(
      () => setOverrides((current) => pruneOverrides(current, serverVoices, Date.now())),
      Math.max(0, expiry - Date.now()) + 50,
    );
    return () => clearTimeout(timer);
  }, [overrides, serverVoices]);

  const voices = useMemo(() => applyOverrides(serverVoices, overrides, Date.now()), [serverVoices, overrides]);

  const hold = useCallback(
    <K extends keyof VoiceOverride>(id: string, field: K, held: NonNullable<VoiceOverride[K]>) =>
      setOverrides((current) => holdField(current, id, field, held)),
    [],
  );
  const release = useCallback(
    (id: string, field: keyof VoiceOverride) => setOverrides((current) => releaseField(current, id, field)),
    [],
  );
  const markChanged = useCallback(() => setLastChangeAt(Date.now()), []);
  const holds = useMemo<VoiceHolds>(() => ({ hold, release, markChanged }), [hold, release, markChanged]);

  return { voices, query, holds };
}
