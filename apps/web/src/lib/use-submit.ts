// A form's submit, run the way every small form of the app runs it: one at a time, busy while it
// runs, and what went wrong in words (a broken form rule as it is, else the server's message,
// else the form's own line). The form reads the outcome to decide what success shows.
import { useCallback, useRef, useState } from 'react';
import { errorMessage } from './api-error';
import { FormError } from './form-error';

export type SubmitOutcome<T> = { ok: true; value: T } | { ok: false; cause: unknown; message: string };

/** The words for a failed submit: a form rule's own message, the server's, else `fallback`. */
export function submitErrorMessage(cause: unknown, fallback: string): string {
  return cause instanceof FormError ? cause.message : errorMessage(cause, fallback);
}

/** Runs `action` and says how it went; never throws. */
export async function attempt<T>(action: () => Promise<T>, fallback: string): Promise<SubmitOutcome<T>> {
  try {
    return { ok: true, value: await action() };
  } catch (cause) {
    return { ok: false, cause, message: submitErrorMessage(cause, fallback) };
  }
}

export interface Submit {
  busy: boolean;
  error: string | null;
  setError: (message: string | null) => void;
  clearError: () => void;
  /**
   * Runs `action` (which may throw a FormError before sending anything) unless a run is under way,
   * then null. A failure's message becomes `error`; `fallback` is said when the error has none.
   */
  run: <T>(action: () => Promise<T>, fallback: string) => Promise<SubmitOutcome<T> | null>;
}

export function useSubmit(): Submit {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);

  const run = useCallback(async <T>(action: () => Promise<T>, fallback: string) => {
    if (running.current) return null;
    running.current = true;
    setError(null);
    setBusy(true);
    const outcome = await attempt(action, fallback);
    running.current = false;
    setBusy(false);
    if (!outcome.ok) setError(outcome.message);
    return outcome;
  }, []);
  const clearError = useCallback(() => setError(null), []);

  return { busy, error, setError, clearError, run };
}
