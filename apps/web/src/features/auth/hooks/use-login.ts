// Login in two steps: credentials, then the authenticator code when the server asks.
import { firstIssueMessage, type LoginBody, loginBodySchema } from '@ownvoice/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { FormError } from '../../../lib/form-error';
import { PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';
import { type LoginStep, loginErrorMessage } from '../error-messages';
import { useAuthTarget } from './use-auth-target';

export function useLogin() {
  const session = useSession();
  const goOn = useAuthTarget(PATHS.dashboard);
  const [step, setStep] = useState<LoginStep>('credentials');
  const [error, setError] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: async (body: LoginBody) => {
      const parsed = loginBodySchema.safeParse(body);
      if (!parsed.success) throw new FormError(firstIssueMessage(parsed.error));
      return session.login(parsed.data);
    },
    onMutate: () => setError(null),
    onSuccess: (outcome) => {
      if (outcome.kind === 'mfa_required') {
        setStep('code');
        return;
      }
      notifySuccess(`Welcome back, ${outcome.user.username}!`);
      goOn(outcome.user);
    },
    onError: (cause) => setError(cause instanceof FormError ? cause.message : loginErrorMessage(cause, step)),
  });

  return {
    step,
    login: mutation.mutate,
    pending: mutation.isPending,
    error,
    clearError: () => setError(null),
    backToCredentials: () => {
      setStep('credentials');
      setError(null);
    },
  };
}
