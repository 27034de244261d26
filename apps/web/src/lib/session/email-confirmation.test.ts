import { EMAIL_MESSAGES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import { confirmationNotice, isEmailNotVerified, RESEND_MESSAGES, resendFailure } from './email-confirmation';

const refusal = (status: number, code?: string, msg = '') => new ApiError({ status, msg, code });

describe('resendFailure', () => {
  it("says the server's words when too many links were asked for, and re-reads nothing", () => {
    expect(resendFailure(refusal(429, 'RATE_LIMITED', 'Three links an hour at most.'))).toEqual({
      message: 'Three links an hour at most.',
      reread: false,
    });
    expect(resendFailure(refusal(429))).toEqual({ message: RESEND_MESSAGES.tooMany, reread: false });
  });

  it('re-reads the user when the server says there is nothing to confirm', () => {
    expect(resendFailure(refusal(400, 'VALIDATION_ERROR', 'Your address a@b.c is already confirmed.'))).toEqual({
      message: 'Your address a@b.c is already confirmed.',
      reread: true,
    });
  });

  it('falls back to its own line for a network failure or an empty answer', () => {
    expect(resendFailure(new TypeError('Failed to fetch'))).toEqual({ message: RESEND_MESSAGES.failed, reread: false });
    expect(resendFailure(refusal(502))).toEqual({ message: RESEND_MESSAGES.failed, reread: false });
  });
});

describe('confirmationNotice', () => {
  const unconfirmed = { email: 'writer@example.com', emailVerified: false };

  it('says where the link went while the address is not confirmed', () => {
    expect(confirmationNotice(unconfirmed, null)).toBe(EMAIL_MESSAGES.notVerified('writer@example.com'));
  });

  it("prefers the server's refusal, even when the page thought the address confirmed", () => {
    expect(confirmationNotice({ ...unconfirmed, emailVerified: true }, 'Confirm it first.')).toBe('Confirm it first.');
    expect(confirmationNotice(unconfirmed, 'Confirm it first.')).toBe('Confirm it first.');
  });

  it('says nothing for a confirmed address or nobody signed in', () => {
    expect(confirmationNotice({ ...unconfirmed, emailVerified: true }, null)).toBeNull();
    expect(confirmationNotice(null, null)).toBeNull();
  });
});

describe('isEmailNotVerified', () => {
  it('knows the refusal by its code only', () => {
    expect(isEmailNotVerified(refusal(403, 'EMAIL_NOT_VERIFIED', 'Confirm your address first'))).toBe(true);
    expect(isEmailNotVerified(refusal(403, 'FORBIDDEN', 'Confirm your address first'))).toBe(false);
    expect(isEmailNotVerified(new Error('EMAIL_NOT_VERIFIED'))).toBe(false);
  });
});
