// A page whose action needs a confirmed address (the pay-later trial, accepting an admin
// invitation): the notice to show before its button, whether the button waits, and the server's
// own refusal (EMAIL_NOT_VERIFIED) when the page thought the address confirmed.
import { EMAIL_MESSAGES } from '@ownvoice/shared';
import { useCallback, useState } from 'react';
import { errorMessage } from '../api-error';
import { confirmationNotice, isEmailNotVerified } from './email-confirmation';
import { useSession } from './session-context';

export interface ConfirmationGate {
  /** What to say before the button, or null when nothing stands in the way. */
  notice: string | null;
  /** The signed-in address is not confirmed: the action waits for it. */
  blocked: boolean;
  /** Takes the server's EMAIL_NOT_VERIFIED refusal (and re-reads the user); false for any other error. */
  takeError: (error: unknown) => boolean;
}

export function useConfirmationGate(): ConfirmationGate {
  const { user, refresh } = useSession();
  const [serverMessage, setServerMessage] = useState<string | null>(null);

  const takeError = useCallback(
    (error: unknown) => {
      if (!isEmailNotVerified(error)) return false;
      setServerMessage(errorMessage(error, EMAIL_MESSAGES.notVerified(user?.email ?? 'your address')));
      refresh().catch(() => undefined);
      return true;
    },
    [user, refresh],
  );

  return {
    notice: confirmationNotice(user, serverMessage),
    blocked: user !== null && !user.emailVerified,
    takeError,
  };
}
