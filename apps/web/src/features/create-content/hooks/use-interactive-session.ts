// The interactive session of one user and mode: kept in localStorage (so a reload resumes it),
// moved on by the server one action at a time. One call at a time; a failed call keeps the state
// and says why (the server's message, else 'Failed'); running out of short content opens the
// purchase prompt instead.
import type { InteractiveAction, InteractiveMode, InteractiveState } from '@ownvoice/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { handleInsufficientLimit } from '../../../lib/purchase-prompt';
import { browserStorage } from '../../../lib/session/browser-storage';
import { interactiveNext } from '../api';
import { interactiveErrorMessage } from '../errors';
import { loadInteractiveState, saveInteractiveState } from '../interactive-storage';

interface Session {
  key: string;
  state: InteractiveState | null;
}

export function useInteractiveSession(userId: string, mode: InteractiveMode) {
  const key = `${userId}:${mode}`;
  const load = useCallback((): Session => {
    const storage = browserStorage();
    return { key, state: storage ? loadInteractiveState(storage, userId, mode) : null };
  }, [key, userId, mode]);

  const [session, setSession] = useState<Session>(load);
  const [pending, setPending] = useState<InteractiveAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const controllerRef = useRef<AbortController | null>(null);

  // Another mode or user: its own saved session, and any call under way no longer counts.
  const current = session.key === key ? session : null;
  useEffect(() => {
    if (session.key === key) return;
    controllerRef.current?.abort();
    setPending(null);
    setError(null);
    setSession(load());
  }, [session.key, key, load]);

  useEffect(() => () => controllerRef.current?.abort(), []);

  const state = current?.state ?? null;

  /** Replaces the session locally (answers, outline edits, going back) and keeps it. */
  const update = useCallback(
    (next: InteractiveState | null) => {
      setSession({ key, state: next });
      const storage = browserStorage();
      if (storage) saveInteractiveState(storage, userId, mode, next);
    },
    [key, userId, mode],
  );

  /** Sends the state with an action; the answer becomes the session. */
  const act = useCallback(
    async (from: InteractiveState, action: InteractiveAction) => {
      controllerRef.current?.abort();
      const controller = new AbortController();
      controllerRef.current = controller;
      setPending(action);
      setError(null);
      try {
        const next = await interactiveNext(from, action, controller.signal);
        if (controller.signal.aborted) return;
        update(next);
      } catch (caught) {
        if (controller.signal.aborted) return;
        if (!handleInsufficientLimit(caught)) setError(interactiveErrorMessage(caught));
      } finally {
        if (controllerRef.current === controller) {
          controllerRef.current = null;
          setPending(null);
        }
      }
    },
    [update],
  );

  const reset = useCallback(() => {
    controllerRef.current?.abort();
    setPending(null);
    setError(null);
    update(null);
  }, [update]);

  return { state, pending, error, clearError: () => setError(null), update, act, reset };
}
