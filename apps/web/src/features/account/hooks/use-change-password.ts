// The password card's form: the current password, the new one twice and, while two-factor is on,
// a code. Every other session is signed out; this one stays, and the user is re-read.
import { EMAIL_MESSAGES } from '@ownvoice/shared';
import { useState } from 'react';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { useSubmit } from '../../../lib/use-submit';
import { changePassword } from '../api';
import { asksForCode, CREDENTIAL_MESSAGES, type PasswordChangeInput, passwordChangeBody } from '../credential-change';

const EMPTY: PasswordChangeInput = { currentPassword: '', password: '', confirmPassword: '', code: '' };

export function useChangePassword() {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const [input, setInput] = useState<PasswordChangeInput>(EMPTY);
  const [open, setOpen] = useState(false);
  const [codeAsked, setCodeAsked] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  const { busy, error, clearError, run } = useSubmit();
  const needsCode = user.mfaEnabled || codeAsked;

  const close = () => {
    setOpen(false);
    setInput(EMPTY);
    clearError();
  };

  const submit = async () => {
    const outcome = await run(async () => {
      const answer = await changePassword(passwordChangeBody(input, needsCode));
      // Re-read before the form closes, so the card shows the change at once.
      await refresh().catch(() => undefined);
      return answer;
    }, CREDENTIAL_MESSAGES.passwordChangeFailed);
    if (!outcome) return;
    if (!outcome.ok) {
      if (asksForCode(outcome.cause)) setCodeAsked(true);
      return;
    }
    close();
    setDone(EMAIL_MESSAGES.passwordChanged);
  };

  return {
    input,
    set: (field: keyof PasswordChangeInput) => (value: string) =>
      setInput((current) => ({ ...current, [field]: value })),
    open,
    start: () => {
      setDone(null);
      setOpen(true);
    },
    close,
    needsCode,
    busy,
    error,
    clearError,
    done,
    clearDone: () => setDone(null),
    submit,
  };
}

export type ChangePassword = ReturnType<typeof useChangePassword>;
