// Authentication state: loading while a stored token's user is fetched,
// authenticated once it arrives, unauthenticated without a token or after any failure.
import type { LoginBody, OnboardingStep, User } from '@ownvoice/shared';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import { setSessionRejectedHandler } from '../../lib/api';
import { isApiError } from '../../lib/api-error';
import { PATHS } from '../../lib/paths';
import { forgetKeptWork } from '../../lib/session/kept-work';
import { fetchMe, patchOnboardingStep, postLogin, postLogout, tokenOf } from '../../lib/session/session-api';
import { type LoginOutcome, type Session, SessionContext, type SessionStatus } from '../../lib/session/session-context';
import { SessionError } from '../../lib/session/session-errors';
import { clearToken, readToken, TOKEN_STORAGE_KEY, writeToken } from '../../lib/token-storage';
import { useInactivityLogout } from './use-inactivity-logout';

const meKey = (token: string | null) => ['session', 'me', token] as const;

function asksForMfa(answer: unknown): boolean {
  return typeof answer === 'object' && answer !== null && (answer as { requiresMFA?: unknown }).requiresMFA === true;
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [token, setToken] = useState<string | null>(readToken);

  const meQuery = useQuery({
    queryKey: meKey(token),
    queryFn: ({ signal }) => {
      if (token === null) throw new Error('No token');
      return fetchMe(token, signal);
    },
    enabled: token !== null,
    staleTime: 60_000,
  });

  /** Forgets the session locally; the caller decides about navigation and revocation. */
  const forget = useCallback(() => {
    clearToken();
    setToken(null);
    // Every cached answer belonged to that user; none may leak into the next session.
    queryClient.clear();
  }, [queryClient]);

  // A failed load of a stored token's user logs out. A failed background refresh
  // only does when the server refused the token, so a network blip keeps the session.
  const { isError, error, data } = meQuery;
  useEffect(() => {
    if (token === null || !isError) return;
    if (data === undefined || (isApiError(error) && error.status === 401)) forget();
  }, [token, isError, error, data, forget]);

  // Any call that the server refuses because the session is gone (revoked, expired) signs out.
  useEffect(() => {
    setSessionRejectedHandler(() => forget());
    return () => setSessionRejectedHandler(undefined);
  }, [forget]);

  // Another tab logged in or out: follow it, since both share the one stored token.
  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key !== null && event.key !== TOKEN_STORAGE_KEY) return;
      const stored = readToken();
      setToken((current) => (current === stored ? current : stored));
      if (stored === null) queryClient.clear();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [queryClient]);

  const signedIn = meQuery.data;
  const logout = useCallback(() => {
    const current = readToken();
    navigate(PATHS.home);
    // What was typed on Convert and Create stays for a session that lapsed, not past a sign-out.
    if (signedIn) forgetKeptWork(signedIn.id || signedIn._id);
    forget();
    // Revocation is best effort: the token is already gone from this browser.
    if (current) postLogout(current).catch(() => undefined);
  }, [forget, navigate, signedIn]);

  const signInWithToken = useCallback(
    async (newToken: string): Promise<User> => {
      // Store the token first, then fetch the user; a failed fetch logs out again.
      writeToken(newToken);
      let user: User;
      try {
        user = await queryClient.fetchQuery({
          queryKey: meKey(newToken),
          queryFn: ({ signal }) => fetchMe(newToken, signal),
          staleTime: 0,
        });
      } catch (cause) {
        forget();
        throw new SessionError('user_fetch_failed', { cause });
      }
      setToken(newToken);
      return user;
    },
    [queryClient, forget],
  );

  const login = useCallback(
    async (credentials: LoginBody): Promise<LoginOutcome> => {
      const answer = await postLogin(credentials);
      if (asksForMfa(answer)) return { kind: 'mfa_required' };
      const newToken = tokenOf(answer);
      if (newToken === null) throw new SessionError('no_token');
      return { kind: 'signed_in', user: await signInWithToken(newToken) };
    },
    [signInWithToken],
  );

  const refresh = useCallback(async (): Promise<User | null> => {
    if (token === null) return null;
    const result = await meQuery.refetch();
    return result.data ?? null;
  }, [token, meQuery.refetch]);

  const advanceOnboarding = useCallback(
    async (step: OnboardingStep): Promise<User> => {
      const user = await patchOnboardingStep(step);
      queryClient.setQueryData(meKey(token), user);
      return user;
    },
    [queryClient, token],
  );

  const user = token !== null ? (meQuery.data ?? null) : null;
  const status: SessionStatus = token === null ? 'unauthenticated' : user ? 'authenticated' : 'loading';

  useInactivityLogout(user?.role ?? null, logout);

  const session = useMemo<Session>(
    () => ({ status, user, login, signInWithToken, logout, refresh, advanceOnboarding }),
    [status, user, login, signInWithToken, logout, refresh, advanceOnboarding],
  );

  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}
