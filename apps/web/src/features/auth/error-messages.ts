// What the auth screen says when signing in or up fails, decided from the error's
// kind and code. The server's own message is shown when no rule below applies.
import { ACCOUNT_LOCK_MS } from '@ownvoice/shared';
import { isApiError } from '../../lib/api-error';
import { isSessionError } from '../../lib/session/session-errors';

const LOCK_HOURS = Math.round(ACCOUNT_LOCK_MS / (60 * 60 * 1000));

export const AUTH_MESSAGES = {
  invalidCredentials: 'Invalid email or password. Please try again.',
  invalidCode: 'Invalid authenticator code. Please try again or use a backup code.',
  accountLocked: `Your account has been temporarily locked after multiple failed login attempts. Please try again in ${LOCK_HOURS} hours.`,
  noToken: 'Login failed: No authentication token received',
  userFetchFailed: 'Login succeeded but failed to fetch user data. Please try again.',
  loginFailed: 'Login failed',
  registrationFailed: 'Registration failed',
  registeredButLoginFailed: 'Registration succeeded, but login failed. Please try logging in manually.',
} as const;

export type LoginStep = 'credentials' | 'code';

const INVALID_LOGIN_CODES = new Set(['INVALID_CREDENTIALS', 'INVALID_MFA_TOKEN']);
const INVALID_LOGIN_MESSAGES = new Set(['Invalid credentials', 'Invalid MFA token']);

function serverMessage(error: unknown): string | null {
  if (!isApiError(error)) return null;
  return error.msg || error.errors[0]?.msg || null;
}

export function loginErrorMessage(error: unknown, step: LoginStep): string {
  if (isSessionError(error)) {
    return error.kind === 'no_token' ? AUTH_MESSAGES.noToken : AUTH_MESSAGES.userFetchFailed;
  }
  if (isApiError(error)) {
    if ((error.code && INVALID_LOGIN_CODES.has(error.code)) || INVALID_LOGIN_MESSAGES.has(error.msg)) {
      return step === 'code' ? AUTH_MESSAGES.invalidCode : AUTH_MESSAGES.invalidCredentials;
    }
    if (error.code === 'ACCOUNT_LOCKED' || error.msg.startsWith('Account is temporarily locked')) {
      return AUTH_MESSAGES.accountLocked;
    }
  }
  return serverMessage(error) ?? AUTH_MESSAGES.loginFailed;
}

export function registerErrorMessage(error: unknown): string {
  // The account exists by then; only signing into it failed.
  if (isSessionError(error)) return AUTH_MESSAGES.registeredButLoginFailed;
  return serverMessage(error) ?? AUTH_MESSAGES.registrationFailed;
}

/** A full beta answers registration with this code; the user belongs on the waitlist. */
export const isBetaWaitlistError = (error: unknown): boolean => isApiError(error) && error.code === 'BETA_WAITLIST';
