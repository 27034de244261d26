// The address card's change form: the new address, the current password and, while two-factor is
// on, a code. A link goes to the new address; the user is re-read so the card shows it waiting.
import { useState } from 'react';
import { useCurrentUser } from '../../../lib/session/session-context';
import { changeEmail } from '../api';
import { CREDENTIAL_MESSAGES, type EmailChangeInput, emailChangeBody } from '../credential-change';
import { useCredentialChange } from './use-credential-change';

const EMPTY: EmailChangeInput = { email: '', currentPassword: '', code: '' };

export function useChangeEmail() {
  const user = useCurrentUser();
  const [sent, setSent] = useState<string | null>(null);
  const form = useCredentialChange({
    empty: EMPTY,
    send: (input, needsCode) => changeEmail(emailChangeBody(input, user, needsCode)),
    failed: CREDENTIAL_MESSAGES.emailChangeFailed,
    onChanged: setSent,
    onStart: () => setSent(null),
  });
  return { ...form, sent, clearSent: () => setSent(null) };
}

export type ChangeEmail = ReturnType<typeof useChangeEmail>;
