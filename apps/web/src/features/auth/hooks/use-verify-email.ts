// The confirmation link's token, posted once when the page opens (a ref keeps React's
// development double effects from posting it twice: a used token is refused the second time).
// A signed-in person's user is re-read after, so the notices of an unconfirmed address go.
import { verifyEmailBodySchema } from '@ownvoice/shared';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSession } from '../../../lib/session/session-context';
import { verifyEmail } from '../api';
import { type VerifyState, type VerifyView, verifyView } from '../verify-email';

export interface VerifyEmail {
  view: VerifyView;
  /** Whether the session is known yet (the way on depends on being signed in). */
  sessionKnown: boolean;
  retry: () => void;
}

export function useVerifyEmail(token: string): VerifyEmail {
  const { status, refresh } = useSession();
  const wellFormed = verifyEmailBodySchema.safeParse({ token }).success;
  const { mutate, ...mutation } = useMutation({
    mutationFn: verifyEmail,
    onSuccess: () => {
      refresh().catch(() => undefined);
    },
  });
  const posted = useRef<string | null>(null);

  useEffect(() => {
    if (!wellFormed || posted.current === token) return;
    posted.current = token;
    mutate(token);
  }, [token, wellFormed, mutate]);

  let state: VerifyState;
  if (token === '') state = { kind: 'no-token' };
  else if (!wellFormed) state = { kind: 'malformed' };
  else if (mutation.isSuccess) state = { kind: 'done', answer: mutation.data };
  else if (mutation.isError) state = { kind: 'failed', error: mutation.error };
  else state = { kind: 'checking' };

  return {
    view: verifyView(state, status === 'authenticated'),
    sessionKnown: status !== 'loading',
    retry: () => {
      if (!mutation.isPending) mutate(token);
    },
  };
}
