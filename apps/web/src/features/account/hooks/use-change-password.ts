// The password card's form: the current password, the new one twice and, while two-factor is on,
// a code. Every other session is signed out; this one stays, and the user is re-read. API keys go
// on working (only a reset revokes them), so the keys there are are read afresh and named, for the
// person to revoke one they did not make (decision 33).
import { type ApiKey, EMAIL_MESSAGES } from '@ownvoice/shared';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { changePassword, fetchApiKeys } from '../api';
import { CREDENTIAL_MESSAGES, type PasswordChangeInput, passwordChangeBody } from '../credential-change';
import { API_KEYS_QUERY_KEY } from './use-api-keys';
import { useCredentialChange } from './use-credential-change';

const EMPTY: PasswordChangeInput = { currentPassword: '', password: '', confirmPassword: '', code: '' };

export function useChangePassword() {
  const queryClient = useQueryClient();
  const [done, setDone] = useState<string | null>(null);
  /** The API keys still working after the change (read afresh, shared with the keys card). */
  const [keptKeys, setKeptKeys] = useState<ApiKey[]>([]);
  const clearDone = () => {
    setDone(null);
    setKeptKeys([]);
  };
  const form = useCredentialChange({
    empty: EMPTY,
    send: (input, needsCode) => changePassword(passwordChangeBody(input, needsCode)),
    failed: CREDENTIAL_MESSAGES.passwordChangeFailed,
    onChanged: async () => {
      setDone(EMAIL_MESSAGES.passwordChanged);
      const keys = await queryClient
        .fetchQuery({ queryKey: API_KEYS_QUERY_KEY, queryFn: ({ signal }) => fetchApiKeys(signal), staleTime: 0 })
        .catch(() => []);
      setKeptKeys(keys);
    },
    onStart: clearDone,
  });
  return { ...form, done, keptKeys, clearDone };
}

export type ChangePassword = ReturnType<typeof useChangePassword>;
