// Failures of the sign-in sequence that are not server errors, told apart by kind so the auth
// screen can word them without matching on text.

export type SessionErrorKind = 'no_token' | 'user_fetch_failed';

const DEFAULT_MESSAGES: Record<SessionErrorKind, string> = {
  no_token: 'No authentication token received',
  user_fetch_failed: 'Failed to fetch user data after login',
};

export class SessionError extends Error {
  readonly kind: SessionErrorKind;
  constructor(kind: SessionErrorKind, options?: { cause?: unknown }) {
    super(DEFAULT_MESSAGES[kind], options);
    this.name = 'SessionError';
    this.kind = kind;
  }
}

export const isSessionError = (error: unknown): error is SessionError => error instanceof SessionError;
