// Accepting an invitation, either way: a new account signs in with the token it is given (as
// registration does), the signed-in account re-reads itself with its new role. Both land on the
// account page with two-factor setup open, since admin functions need it. An existing account
// needs a confirmed address first: the server's refusal goes to the confirmation gate.
import { firstIssueMessage, type RegisterForm, registerFormSchema } from '@ownvoice/shared';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { FormError } from '../../../lib/form-error';
import { ACCOUNT_TWO_FACTOR_SETUP_PATH } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { useConfirmationGate } from '../../../lib/session/use-confirmation-gate';
import { notifySuccess } from '../../../lib/toast';
import { acceptAsSignedIn, acceptWithNewAccount } from '../api';
import { acceptErrorMessage, unusableInvitationMessage } from '../invitation-view';

export function useAcceptInvitation(token: string, onUnusable: (message: string) => void) {
  const session = useSession();
  const navigate = useNavigate();
  const confirmation = useConfirmationGate();
  const [error, setError] = useState<string | null>(null);

  const handlers = {
    onMutate: () => setError(null),
    onSuccess: () => {
      notifySuccess('Invitation accepted. Set up two-factor next.');
      navigate(ACCOUNT_TWO_FACTOR_SETUP_PATH, { replace: true });
    },
    onError: (cause: unknown) => {
      const unusable = unusableInvitationMessage(cause);
      if (unusable) onUnusable(unusable);
      else if (!confirmation.takeError(cause)) {
        setError(cause instanceof FormError ? cause.message : acceptErrorMessage(cause));
      }
    },
  };

  const signUp = useMutation({
    ...handlers,
    mutationFn: async (form: RegisterForm) => {
      // Registration's own rules, with the invited address as the e-mail.
      const parsed = registerFormSchema.safeParse(form);
      if (!parsed.success) throw new FormError(firstIssueMessage(parsed.error));
      const { username, password } = parsed.data;
      await session.signInWithToken(await acceptWithNewAccount(token, { username, password }));
    },
  });

  const accept = useMutation({
    ...handlers,
    mutationFn: async () => {
      await acceptAsSignedIn(token);
      await session.refresh();
    },
  });

  return {
    signUp: signUp.mutate,
    accept: () => accept.mutate(),
    pending: signUp.isPending || accept.isPending,
    /** The signed-in address is not confirmed: say so before "Accept", which waits for it. */
    confirmation,
    error,
    clearError: () => setError(null),
  };
}
