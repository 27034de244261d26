import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { checkoutFailureMessage } from './billing-messages';

describe('checkoutFailureMessage', () => {
  it("prefixes the server's error text, then its message", () => {
    const withErrors = new ApiError({
      status: 400,
      msg: 'Validation failed',
      errors: [{ msg: 'extra_model adds 1 modelsTrained; reload the plans page and try again', path: 'metadata' }],
    });
    expect(checkoutFailureMessage(withErrors)).toBe(
      'Error: extra_model adds 1 modelsTrained; reload the plans page and try again',
    );
    expect(checkoutFailureMessage(new ApiError({ status: 502, msg: 'The payment provider is unavailable' }))).toBe(
      'Error: The payment provider is unavailable',
    );
  });

  it('falls back to a general line when nothing was said', () => {
    expect(checkoutFailureMessage(new ApiError({ status: 500, msg: '' }))).toBe('Error: Failed to start checkout.');
    expect(checkoutFailureMessage('boom')).toBe('Error: Failed to start checkout.');
  });
});
