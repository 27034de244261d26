import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { FormError } from './form-error';
import { attempt, submitErrorMessage } from './use-submit';

describe('submitErrorMessage', () => {
  it("says a form rule's message as is, the server's message, else the form's own line", () => {
    expect(submitErrorMessage(new FormError('Passwords do not match'), 'Failed')).toBe('Passwords do not match');
    expect(submitErrorMessage(new ApiError({ status: 400, msg: 'That is already your address.' }), 'Failed')).toBe(
      'That is already your address.',
    );
    expect(submitErrorMessage(new TypeError('Failed to fetch'), 'Could not send the link.')).toBe(
      'Could not send the link.',
    );
  });
});

describe('attempt', () => {
  it('gives the value of an action that worked', async () => {
    expect(await attempt(async () => 'sent', 'Failed')).toEqual({ ok: true, value: 'sent' });
  });

  it('turns a throw, before or after sending, into the words to show and keeps the cause', async () => {
    const rule = new FormError('Enter your current password.');
    expect(
      await attempt(() => {
        throw rule;
      }, 'Failed'),
    ).toEqual({ ok: false, cause: rule, message: 'Enter your current password.' });
    const refused = new ApiError({ status: 400, msg: '', code: 'MFA_REQUIRED' });
    const outcome = await attempt(() => Promise.reject(refused), 'Could not change the password.');
    expect(outcome).toEqual({ ok: false, cause: refused, message: 'Could not change the password.' });
  });
});
