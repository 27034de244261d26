// The one shape of a form that changes a credential with the current password again (and a code
// while two-factor is on, or once the server asks for one): its fields, open or closed, and a
// submit that re-reads the user before the form closes, so the card shows the change at once.
import { useState } from 'react';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { useSubmit } from '../../../lib/use-submit';
import { asksForCode } from '../credential-change';

export function useCredentialChange<Input, Answer>(form: {
  empty: Input;
  /** Throws a FormError for a broken form rule before anything is sent. */
  send: (input: Input, needsCode: boolean) => Promise<Answer>;
  /** What the form says when the change failed for a reason it does not know. */
  failed: string;
  /** After a change that went through, the form closed. */
  onChanged: (answer: Answer) => void | Promise<void>;
  /** As the form opens: what the last change left on the card is cleared. */
  onStart: () => void;
}) {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const [input, setInput] = useState<Input>(form.empty);
  const [open, setOpen] = useState(false);
  const [codeAsked, setCodeAsked] = useState(false);
  const { busy, error, clearError, run } = useSubmit();
  const needsCode = user.mfaEnabled || codeAsked;

  const close = () => {
    setOpen(false);
    setInput(form.empty);
    clearError();
  };

  const submit = async () => {
    const outcome = await run(async () => {
      const answer = await form.send(input, needsCode);
      await refresh().catch(() => undefined);
      return answer;
    }, form.failed);
    if (!outcome) return;
    if (!outcome.ok) {
      if (asksForCode(outcome.cause)) setCodeAsked(true);
      return;
    }
    close();
    await form.onChanged(outcome.value);
  };

  return {
    input,
    set: (field: keyof Input) => (value: string) => setInput((current) => ({ ...current, [field]: value })),
    open,
    start: () => {
      form.onStart();
      setOpen(true);
    },
    close,
    needsCode,
    busy,
    error,
    clearError,
    submit,
  };
}
