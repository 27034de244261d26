// The password card's form: the current password, the new one twice and, while two-factor is on,
// a code. Every other session is signed out; this one stays, and the user is re-read. API keys go
// on working (only a reset revokes them), so the keys there are are read afresh and named, for the
// person to revoke one they did not make (decision 33).
import { type ApiKey, EMAIL_MESSAGES } from '@ownvoice/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { useSubmit } from '../../../lib/use-submit';
import { changePassword, fetchApiKeys } from '../api';
import { asksForCode, CREDENTIAL_MESSAGES, type PasswordChangeInput, passwordChangeBody } from '../credential-change';
import { API_KEYS_QUERY_KEY } from './use-api-keys';

const EMPTY: PasswordChangeInput = { currentPassword: '', password: '', confirmPassword: '', code: '' };

export function useChangePassword() {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const queryClient = useQueryClient();
  const [input, setInput] = useState<PasswordChangeInput>(EMPTY);
  const [open, setOpen] = useState(false);
  const [codeAsked, setCodeAsked] = useState(false);
  const [done, setDone] = useState<string | null>(null);
  /** The API keys still working after the change (read afresh, shared with the keys card). */
  const [keptKeys, setKeptKeys] = useState<ApiKey[]>([]);
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
    const keys = await queryClient
      .fetchQuery({ queryKey: API_KEYS_QUERY_KEY, queryFn: ({ signal }) => fetchApiKeys(signal), staleTime: 0 })
      .catch(() => []);
    setKeptKeys(keys);
  };

  return {
    input,
    set: (field: keyof PasswordChangeInput) => (value: string) =>
      setInput((current) => ({ ...current, [field]: value })),
    open,
    start: () => {
      setDone(null);
      setKeptKeys([]);
      setOpen(true);
    },
    close,
    needsCode,
    busy,
    error,
    clearError,
    done,
    keptKeys,
    clearDone: () => {
      setDone(null);
      setKeptKeys([]);
    },
    submit,
  };
}

export type ChangePassword = ReturnType<typeof useChangePassword>;
