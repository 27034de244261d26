// The address card's change form: the new address, the current password and, while two-factor is
// on, a code. A link goes to the new address; the user is re-read so the card shows it waiting.
import { useState } from 'react';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { useSubmit } from '../../../lib/use-submit';
import { changeEmail } from '../api';
import { asksForCode, CREDENTIAL_MESSAGES, type EmailChangeInput, emailChangeBody } from '../credential-change';

const EMPTY: EmailChangeInput = { email: '', currentPassword: '', code: '' };

export function useChangeEmail() {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const [input, setInput] = useState<EmailChangeInput>(EMPTY);
  const [open, setOpen] = useState(false);
  const [codeAsked, setCodeAsked] = useState(false);
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, clearError, run } = useSubmit();
  const needsCode = user.mfaEnabled || codeAsked;

  const close = () => {
    setOpen(false);
    setInput(EMPTY);
    clearError();
  };

  const submit = async () => {
    const outcome = await run(async () => {
      const answer = await changeEmail(emailChangeBody(input, user, needsCode));
      // Re-read before the form closes, so the card shows the change at once.
      await refresh().catch(() => undefined);
      return answer;
    }, CREDENTIAL_MESSAGES.emailChangeFailed);
    if (!outcome) return;
    if (!outcome.ok) {
      if (asksForCode(outcome.cause)) setCodeAsked(true);
      return;
    }
    close();
    setSent(outcome.value);
  };

  return {
    input,
    set: (field: keyof EmailChangeInput) => (value: string) => setInput((current) => ({ ...current, [field]: value })),
    open,
    start: () => {
      setSent(null);
      setOpen(true);
    },
    close,
    needsCode,
    busy,
    error,
    clearError,
    sent,
    clearSent: () => setSent(null),
    submit,
  };
}

export type ChangeEmail = ReturnType<typeof useChangeEmail>;
