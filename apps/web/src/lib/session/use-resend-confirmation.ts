// "Send again" for the confirmation link: one request at a time, then the server's words (what
// to look for, or why not). A refusal that says there is nothing to confirm re-reads the user, so
// every notice of an unconfirmed address goes away.
import { useMutation } from '@tanstack/react-query';
import { resendFailure } from './email-confirmation';
import { resendConfirmation } from './email-confirmation-api';
import { useSession } from './session-context';

export interface ResendConfirmation {
  send: () => void;
  pending: boolean;
  /** The server's answer once the link went out. */
  sent: string | null;
  failed: string | null;
}

export function useResendConfirmation(): ResendConfirmation {
  const { refresh } = useSession();
  const mutation = useMutation({
    mutationFn: resendConfirmation,
    onError: (error) => {
      if (resendFailure(error).reread) refresh().catch(() => undefined);
    },
  });
  return {
    send: () => {
      if (!mutation.isPending) mutation.mutate();
    },
    pending: mutation.isPending,
    sent: mutation.data ?? null,
    failed: mutation.isError ? resendFailure(mutation.error).message : null,
  };
}
