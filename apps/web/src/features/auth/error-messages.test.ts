import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { SessionError } from '../../lib/session/session-errors';
import { AUTH_MESSAGES, isBetaWaitlistError, loginErrorMessage, registerErrorMessage } from './error-messages';

const apiError = (status: number, msg: string, code?: string) => new ApiError({ status, msg, code });

describe('login error messages', () => {
  it('words invalid credentials by step', () => {
    const wrong = apiError(401, 'Invalid credentials', 'INVALID_CREDENTIALS');
    expect(loginErrorMessage(wrong, 'credentials')).toBe('Invalid email or password. Please try again.');
    expect(loginErrorMessage(wrong, 'code')).toBe('Invalid authenticator code. Please try again or use a backup code.');
  });

  it('treats a bad second factor like bad credentials', () => {
    const badCode = apiError(401, 'Invalid MFA token', 'INVALID_MFA_TOKEN');
    expect(loginErrorMessage(badCode, 'code')).toBe(AUTH_MESSAGES.invalidCode);
    expect(loginErrorMessage(badCode, 'credentials')).toBe(AUTH_MESSAGES.invalidCredentials);
    // Matched by message too, for a server that sends no code.
    expect(loginErrorMessage(apiError(401, 'Invalid MFA token'), 'code')).toBe(AUTH_MESSAGES.invalidCode);
  });

  it('explains a locked account with the 2-hour wait', () => {
    const locked = apiError(423, 'Account is temporarily locked. Try again later.', 'ACCOUNT_LOCKED');
    expect(loginErrorMessage(locked, 'credentials')).toBe(AUTH_MESSAGES.accountLocked);
    expect(AUTH_MESSAGES.accountLocked).toMatch(/locked after multiple failed login attempts.*try again in 2 hours/i);
    expect(loginErrorMessage(apiError(423, 'Account is temporarily locked'), 'code')).toBe(AUTH_MESSAGES.accountLocked);
  });

  it('reports the sign-in sequence failures', () => {
    expect(loginErrorMessage(new SessionError('no_token'), 'credentials')).toBe(
      'Login failed: No authentication token received',
    );
    expect(loginErrorMessage(new SessionError('user_fetch_failed'), 'code')).toBe(
      'Login succeeded but failed to fetch user data. Please try again.',
    );
  });

  it("falls back to the server's first message, then to 'Login failed'", () => {
    const limited = apiError(429, 'Too many attempts. Please wait a minute and try again.', 'RATE_LIMITED');
    expect(loginErrorMessage(limited, 'credentials')).toBe(limited.msg);
    const listOnly = new ApiError({ status: 400, msg: '', errors: [{ msg: 'Email is required', path: 'email' }] });
    expect(loginErrorMessage(listOnly, 'credentials')).toBe('Email is required');
    expect(loginErrorMessage(new TypeError('Failed to fetch'), 'credentials')).toBe('Login failed');
  });
});

describe('registration error messages', () => {
  it("shows the server's first message", () => {
    const taken = apiError(409, 'Username is already taken', 'USERNAME_TAKEN');
    expect(registerErrorMessage(taken)).toBe('Username is already taken');
    const invalid = apiError(400, 'Password must be 8-128 characters long', 'VALIDATION_ERROR');
    expect(registerErrorMessage(invalid)).toBe('Password must be 8-128 characters long');
  });

  it("falls back to 'Registration failed'", () => {
    expect(registerErrorMessage(new Error('boom'))).toBe('Registration failed');
  });

  it('tells the user to log in manually when only the sign-in after registering failed', () => {
    expect(registerErrorMessage(new SessionError('user_fetch_failed'))).toBe(
      'Registration succeeded, but login failed. Please try logging in manually.',
    );
    expect(registerErrorMessage(new SessionError('no_token'))).toBe(AUTH_MESSAGES.registeredButLoginFailed);
  });

  it('recognises the waitlist answer', () => {
    expect(isBetaWaitlistError(apiError(403, 'The beta is full', 'BETA_WAITLIST'))).toBe(true);
    expect(isBetaWaitlistError(apiError(403, 'Forbidden', 'FORBIDDEN'))).toBe(false);
  });
});
