// What the e-mailed confirmation link's page says at each moment, and where it leads on: the
// dashboard or the login once the address is confirmed; after a refusal, the way to a new link
// (the account page), another address, or the waitlist.
import { EMAIL_MESSAGES, type VerifyEmailResponse } from '@ownvoice/shared';
import { errorMessage, isApiError } from '../../lib/api-error';
import { authPath, PATHS } from '../../lib/paths';

export type VerifyState =
  | { kind: 'no-token' }
  | { kind: 'malformed' }
  | { kind: 'checking' }
  | { kind: 'done'; answer: VerifyEmailResponse }
  | { kind: 'failed'; error: unknown };

export interface VerifyAction {
  label: string;
  to: string;
}

export interface VerifyView {
  title: string;
  tone: 'busy' | 'success' | 'problem';
  message: string;
  /** The way on, or null while the link is being checked. */
  action: VerifyAction | null;
  /** The request itself failed (network, server): the same link may work on a second try. */
  canRetry: boolean;
}

export const VERIFY_MESSAGES = {
  checking: 'Confirming your address…',
  noToken: 'This page needs the link from the e-mail we sent you. Open it from there, or ask for a new one.',
  unreachable: 'Could not confirm your address just now. Please try again in a moment.',
} as const;

/** The account page, where a new link is sent or another address chosen; a signed-out person logs in first. */
const toAccount = (signedIn: boolean, label: string, signedOutLabel = 'Log in to ask for a new link'): VerifyAction =>
  signedIn ? { label, to: PATHS.account } : { label: signedOutLabel, to: authPath('login', PATHS.account) };

const problem = (title: string, message: string, action: VerifyAction, canRetry = false): VerifyView => ({
  title,
  tone: 'problem',
  message,
  action,
  canRetry,
});

function failedView(error: unknown, signedIn: boolean): VerifyView {
  const title = 'This link did not work';
  if (!isApiError(error) || error.status >= 500) {
    return problem(
      'Could not confirm your address',
      VERIFY_MESSAGES.unreachable,
      toAccount(signedIn, 'Go to your account page'),
      true,
    );
  }
  if (error.code === 'BETA_WAITLIST') {
    return problem(title, errorMessage(error, EMAIL_MESSAGES.linkInvalid), {
      label: 'Join the waitlist',
      to: PATHS.waitlist,
    });
  }
  if (error.code === 'EMAIL_TAKEN') {
    return problem(
      title,
      errorMessage(error, EMAIL_MESSAGES.linkInvalid),
      toAccount(signedIn, 'Choose another address', 'Log in to choose another address'),
    );
  }
  // EMAIL_LINK_INVALID (used, replaced or expired) and any other refusal of the link.
  return problem(
    title,
    errorMessage(error, EMAIL_MESSAGES.linkInvalid),
    toAccount(signedIn, 'Send a new link from your account page'),
  );
}

export function verifyView(state: VerifyState, signedIn: boolean): VerifyView {
  switch (state.kind) {
    case 'no-token':
      return problem('Confirm your address', VERIFY_MESSAGES.noToken, toAccount(signedIn, 'Go to your account page'));
    case 'malformed':
      return problem(
        'This link did not work',
        EMAIL_MESSAGES.linkInvalid,
        toAccount(signedIn, 'Send a new link from your account page'),
      );
    case 'checking':
      return {
        title: 'Confirming your address',
        tone: 'busy',
        message: VERIFY_MESSAGES.checking,
        action: null,
        canRetry: false,
      };
    case 'done':
      return {
        title: state.answer.changed ? 'Address changed' : 'Address confirmed',
        tone: 'success',
        message: state.answer.changed ? EMAIL_MESSAGES.emailChanged(state.answer.email) : EMAIL_MESSAGES.verified,
        action: signedIn
          ? { label: 'Go to your dashboard', to: PATHS.dashboard }
          : { label: 'Log in', to: authPath('login') },
        canRetry: false,
      };
    case 'failed':
      return failedView(state.error, signedIn);
  }
}
