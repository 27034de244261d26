// The calls behind the signed-in session: who am I, sign in, sign out, onboarding progress.
import { type LoginBody, meResponseSchema, type OnboardingStep, type User } from '@ownvoice/shared';
import { api } from '../api';

export async function fetchMe(token: string, signal?: AbortSignal): Promise<User> {
  const { user } = await api.get('/auth/me', { schema: meResponseSchema, token, ...(signal ? { signal } : {}) });
  return user;
}

/** The session token in a login or registration answer, or null when it carries none. */
export function tokenOf(answer: unknown): string | null {
  if (typeof answer !== 'object' || answer === null) return null;
  const { token } = answer as { token?: unknown };
  return typeof token === 'string' && token !== '' ? token : null;
}

/** The raw login answer: a token (and user), or a request for the second factor. */
export function postLogin(body: LoginBody): Promise<unknown> {
  return api.post('/auth/login', body, { token: null });
}

/** Revokes the session server-side; the token is passed because it is already gone locally. */
export function postLogout(token: string): Promise<unknown> {
  return api.post('/auth/logout', undefined, { token });
}

export async function patchOnboardingStep(step: OnboardingStep): Promise<User> {
  const { user } = await api.patch('/auth/onboarding', { step }, { schema: meResponseSchema });
  return user;
}
