import { EMAIL_MESSAGES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { authPath, PATHS } from '../../lib/paths';
import { VERIFY_MESSAGES, verifyView } from './verify-email';

const refused = (code: string, msg: string, status = 400) => ({
  kind: 'failed' as const,
  error: new ApiError({ status, code, msg }),
});

describe('verifyView', () => {
  it('says it is checking, with no way on yet', () => {
    expect(verifyView({ kind: 'checking' }, true)).toMatchObject({
      tone: 'busy',
      message: VERIFY_MESSAGES.checking,
      action: null,
    });
  });

  it('says the address is confirmed, then leads to the dashboard or the login', () => {
    const done = { kind: 'done' as const, answer: { email: 'writer@example.com', changed: false } };
    expect(verifyView(done, true)).toEqual({
      title: 'Address confirmed',
      tone: 'success',
      message: EMAIL_MESSAGES.verified,
      action: { label: 'Go to your dashboard', to: PATHS.dashboard },
      canRetry: false,
    });
    expect(verifyView(done, false).action).toEqual({ label: 'Log in', to: authPath('login') });
  });

  it('says what the address is now after a change', () => {
    const view = verifyView({ kind: 'done', answer: { email: 'new@example.com', changed: true } }, true);
    expect(view.title).toBe('Address changed');
    expect(view.message).toBe('Your address is now new@example.com.');
  });

  it("shows the server's words for a used or expired link and leads to a new link", () => {
    const failed = refused('EMAIL_LINK_INVALID', 'This link does not work any more.');
    expect(verifyView(failed, true)).toMatchObject({
      tone: 'problem',
      message: 'This link does not work any more.',
      action: { to: PATHS.account },
      canRetry: false,
    });
    // Signed out: the account page after the login.
    expect(verifyView(failed, false).action).toEqual({
      label: 'Log in to ask for a new link',
      to: authPath('login', PATHS.account),
    });
  });

  it('leads to another address when the new one was taken meanwhile, and to the waitlist when the beta is full', () => {
    expect(verifyView(refused('EMAIL_TAKEN', 'That address is taken.', 409), true).action).toEqual({
      label: 'Choose another address',
      to: PATHS.account,
    });
    expect(verifyView(refused('EMAIL_TAKEN', 'That address is taken.', 409), false).action?.label).toBe(
      'Log in to choose another address',
    );
    expect(verifyView(refused('BETA_WAITLIST', 'The beta is full.', 409), false)).toMatchObject({
      message: 'The beta is full.',
      action: { to: PATHS.waitlist },
    });
  });

  it('offers another try when the request itself failed', () => {
    const offline = verifyView({ kind: 'failed', error: new TypeError('Failed to fetch') }, true);
    expect(offline).toMatchObject({ message: VERIFY_MESSAGES.unreachable, canRetry: true });
    expect(verifyView(refused('INTERNAL_ERROR', 'Boom', 500), true).canRetry).toBe(true);
  });

  it('says a page opened without a link, or with a broken one, needs the e-mail', () => {
    expect(verifyView({ kind: 'no-token' }, true)).toMatchObject({ message: VERIFY_MESSAGES.noToken, tone: 'problem' });
    expect(verifyView({ kind: 'malformed' }, false)).toMatchObject({
      message: EMAIL_MESSAGES.linkInvalid,
      action: { to: authPath('login', PATHS.account) },
    });
  });
});
