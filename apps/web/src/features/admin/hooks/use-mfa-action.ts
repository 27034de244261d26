// A sensitive admin action as a mutation: sent through the console's second-factor prompt, then
// every admin query is refreshed and the success is announced. A failure shows the server's
// message (the action's own wording when it has none), as a toast or for the caller to show inline.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { errorMessage } from '../../../lib/api-error';
import { notifyError, notifySuccess } from '../../../lib/toast';
import { useMfaPrompt } from './mfa-context';
import { ADMIN_QUERY_KEY } from './use-admin-data';

export interface MfaActionOptions<V, R> {
  run: (vars: V, mfaToken: string | undefined) => Promise<R>;
  /** The toast after success; none when the caller shows the result itself. */
  successMessage?: string;
  failureMessage: string;
  /** 'inline': the caller shows `error` (a form in a modal); 'toast': a notification says it. */
  errorDisplay?: 'inline' | 'toast';
  onDone?: (result: R, vars: V) => void;
}

export function useMfaAction<V, R>({
  run,
  successMessage,
  failureMessage,
  errorDisplay = 'toast',
  onDone,
}: MfaActionOptions<V, R>) {
  const { withMfa } = useMfaPrompt();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: (vars: V) => withMfa((mfaToken) => run(vars, mfaToken)),
    onMutate: () => setError(null),
    onSuccess: async (outcome, vars) => {
      if (outcome.kind === 'cancelled') return;
      if (successMessage) notifySuccess(successMessage);
      onDone?.(outcome.value, vars);
      // Still pending until the lists show the change, so a role select never flicks back.
      await queryClient.invalidateQueries({ queryKey: ADMIN_QUERY_KEY });
    },
    onError: (cause) => {
      const message = errorMessage(cause, failureMessage);
      if (errorDisplay === 'inline') setError(message);
      else notifyError(message === failureMessage ? 'Please try again.' : message, failureMessage);
    },
  });

  return {
    execute: mutation.mutate,
    pending: mutation.isPending,
    /** The variables of the action under way, e.g. the role being set. */
    variables: mutation.isPending ? mutation.variables : undefined,
    error,
    clearError: () => setError(null),
  };
}
