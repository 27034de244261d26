// What the rest of the app knows about the signed-in user, and the actions that change it.
import type { LoginBody, OnboardingStep, User } from '@ownvoice/shared';
import { createContext, useContext } from 'react';

export type SessionStatus = 'loading' | 'unauthenticated' | 'authenticated';

export type LoginOutcome = { kind: 'mfa_required' } | { kind: 'signed_in'; user: User };

export interface Session {
  status: SessionStatus;
  user: User | null;
  /** Sends credentials (and the code on the second step); stores the token and loads the user. */
  login(credentials: LoginBody): Promise<LoginOutcome>;
  /** Stores a token the server already issued (registration) and loads its user. */
  signInWithToken(token: string): Promise<User>;
  /** Removes the token, revokes the session server-side, clears the user and goes to /. */
  logout(): void;
  /** Re-fetches the user; null when signed out. */
  refresh(): Promise<User | null>;
  /** Moves the onboarding step forward (a step at or before the current one changes nothing). */
  advanceOnboarding(step: OnboardingStep): Promise<User>;
}

export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('useSession must be used inside <SessionProvider>');
  return session;
}

/** The signed-in user, for pages that only render behind the private route guard. */
export function useCurrentUser(): User {
  const { user } = useSession();
  if (!user) throw new Error('useCurrentUser must be used behind the private route guard');
  return user;
}
