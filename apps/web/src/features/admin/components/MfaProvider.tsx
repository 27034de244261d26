// Holds the console's one MfaDialog. A sensitive action is tried without a code first; when the
// server answers requiresMFAToken the dialog opens, and each code typed resends the action until
// it is accepted (the dialog closes), fails for another reason (the action's own error), or the
// admin cancels (nothing happens).
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import { MfaContext, type MfaPrompt } from '../hooks/mfa-context';
import { type MfaOutcome, mfaDecision } from '../mfa-retry';
import { MfaDialog } from './MfaDialog';

interface PendingAction {
  /** Each prompt is a new dialog, so no code typed for one action carries over to the next. */
  id: number;
  /** Resends the action with a code; settles the caller's promise when it succeeds. */
  retry: (code: string) => Promise<void>;
  cancel: () => void;
  fail: (error: unknown) => void;
}

export function MfaProvider({ children }: { children: ReactNode }) {
  const [pending, setPending] = useState<PendingAction | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const prompts = useRef(0);

  const withMfa = useCallback(async <T,>(attempt: (mfaToken: string | undefined) => Promise<T>) => {
    try {
      const value = await attempt(undefined);
      return { kind: 'done', value } as const;
    } catch (cause) {
      if (mfaDecision(cause, false).kind === 'fail') throw cause;
    }
    return new Promise<MfaOutcome<T>>((resolve, reject) => {
      prompts.current += 1;
      setError(null);
      setPending({
        id: prompts.current,
        retry: async (code) => resolve({ kind: 'done', value: await attempt(code) }),
        cancel: () => resolve({ kind: 'cancelled' }),
        fail: reject,
      });
    });
  }, []);

  const submit = async (code: string) => {
    if (!pending) return;
    setBusy(true);
    setError(null);
    try {
      await pending.retry(code);
      setPending(null);
    } catch (cause) {
      const decision = mfaDecision(cause, true);
      if (decision.kind === 'ask') {
        setError(decision.message);
      } else {
        setPending(null);
        pending.fail(cause);
      }
    } finally {
      setBusy(false);
    }
  };

  const cancel = () => {
    if (!pending || busy) return;
    setPending(null);
    pending.cancel();
  };

  const prompt = useMemo<MfaPrompt>(() => ({ withMfa }), [withMfa]);
  return (
    <MfaContext.Provider value={prompt}>
      {children}
      {pending && <MfaDialog key={pending.id} error={error} busy={busy} onSubmit={submit} onCancel={cancel} />}
    </MfaContext.Provider>
  );
}
