// Sending a failed e-mail again: no second factor (it only repeats a message the service meant to
// send); the outbox refreshes and a toast says it is queued, or why not.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../../lib/api-error';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { retryMail } from '../api';
import { ADMIN_QUERY_KEY } from './use-admin-data';

export const RETRY_MAIL_MESSAGES = {
  done: 'The message is queued again.',
  failed: 'Failed to send the message again',
} as const;

export function useRetryMail() {
  const queryClient = useQueryClient();
  const mutation = useMutation({
    mutationFn: retryMail,
    onSuccess: async () => {
      notifySuccess(RETRY_MAIL_MESSAGES.done);
      await queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEY });
    },
    onError: (cause) => {
      const message = errorMessage(cause, RETRY_MAIL_MESSAGES.failed);
      notifyError(message === RETRY_MAIL_MESSAGES.failed ? 'Please try again.' : message, RETRY_MAIL_MESSAGES.failed);
    },
  });
  return {
    retry: mutation.mutate,
    /** The message being sent again, if any. */
    pendingId: mutation.isPending ? mutation.variables : undefined,
  };
}
