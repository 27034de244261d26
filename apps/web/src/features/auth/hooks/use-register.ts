// Registration: validate with the shared rules, create the account, sign in with the token it
// returns. A full beta sends the visitor to the waitlist instead.
import { firstIssueMessage, type RegisterForm, registerFormSchema } from '@ownvoice/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FormError } from '../../../lib/form-error';
import { PATHS } from '../../../lib/paths';
import { tokenOf } from '../../../lib/session/session-api';
import { useSession } from '../../../lib/session/session-context';
import { SessionError } from '../../../lib/session/session-errors';
import { notifySuccess } from '../../../lib/toast';
import { postRegister } from '../api';
import { isBetaWaitlistError, registerErrorMessage } from '../error-messages';
import { useAuthTarget } from './use-auth-target';

export function useRegister() {
  const session = useSession();
  const navigate = useNavigate();
  const goOn = useAuthTarget(PATHS.onboardingChoice);
  const [error, setError] = useState<string | null>(null);

  const mutation = useMutation({
    mutationFn: async (form: RegisterForm) => {
      const parsed = registerFormSchema.safeParse(form);
      if (!parsed.success) throw new FormError(firstIssueMessage(parsed.error));
      const { username, email, password } = parsed.data;
      const token = tokenOf(await postRegister({ username, email, password }));
      if (token === null) throw new SessionError('no_token');
      return session.signInWithToken(token);
    },
    onMutate: () => setError(null),
    onSuccess: (user) => {
      notifySuccess(`Welcome to OwnVoice, ${user.username}!`);
      goOn(user);
    },
    onError: (cause) => {
      if (isBetaWaitlistError(cause)) {
        navigate(PATHS.waitlist);
        return;
      }
      setError(cause instanceof FormError ? cause.message : registerErrorMessage(cause));
    },
  });

  return { register: mutation.mutate, pending: mutation.isPending, error, clearError: () => setError(null) };
}
