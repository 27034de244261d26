// When a sensitive admin action asks for a second-factor code, and what the code box accepts.
import { LOGIN_CODE_MAX, LOGIN_CODE_MIN } from '@ownvoice/shared';
import { errorMessage, isApiError } from '../../lib/api-error';

export const MFA_CODE_HINT = 'Admin MFA code entry: letters and digits only, 6 to 8 characters';
const WRONG_CODE_FALLBACK = 'That code was not accepted. Try a new one.';

/**
 * What to do after an attempt failed: ask for a code (again), with the server's reason when a
 * code was sent and refused; or give up and report the failure like any other.
 */
export type MfaDecision = { kind: 'ask'; message: string | null } | { kind: 'fail' };

export function mfaDecision(error: unknown, sentCode: boolean): MfaDecision {
  if (!isApiError(error) || !error.requiresMFAToken) return { kind: 'fail' };
  // The first refusal only means "a code is needed": nothing went wrong yet.
  return { kind: 'ask', message: sentCode ? errorMessage(error, WRONG_CODE_FALLBACK) : null };
}

/** What the code box keeps as the admin types or pastes: letters and digits, at most 8. */
export const filterMfaCode = (value: string): string => value.replace(/[^A-Za-z0-9]/g, '').slice(0, LOGIN_CODE_MAX);

export const isMfaCodeComplete = (code: string): boolean => code.length >= LOGIN_CODE_MIN;

/** How a guarded action ended: done with the server's answer, or cancelled in the code dialog. */
export type MfaOutcome<T> = { kind: 'done'; value: T } | { kind: 'cancelled' };
