import { EMAIL_MESSAGES, MESSAGES } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { FormError } from '../../lib/form-error';
import { asksForCode, emailChangeBody, passwordChangeBody } from './credential-change';

const user = { email: 'writer@example.com' };
const emailInput = { email: ' New@Example.com ', currentPassword: 'Old-passw0rd', code: '' };
const passwordInput = {
  currentPassword: 'Old-passw0rd',
  password: 'N3w-passw0rd',
  confirmPassword: 'N3w-passw0rd',
  code: '',
};

describe('emailChangeBody', () => {
  it('sends the new address as the server keeps it, with the password', () => {
    expect(emailChangeBody(emailInput, user, false)).toEqual({
      email: 'new@example.com',
      currentPassword: 'Old-passw0rd',
    });
  });

  it('sends the code while two-factor is on, and asks for it when missing', () => {
    expect(emailChangeBody({ ...emailInput, code: '123456' }, user, true)).toMatchObject({ mfaToken: '123456' });
    expect(() => emailChangeBody(emailInput, user, true)).toThrow(EMAIL_MESSAGES.codeNeeded);
  });

  it('refuses the address it already is, a bad address and a missing password', () => {
    expect(() => emailChangeBody({ ...emailInput, email: 'WRITER@example.com' }, user, false)).toThrow(
      EMAIL_MESSAGES.sameEmail,
    );
    expect(() => emailChangeBody({ ...emailInput, email: '' }, user, false)).toThrow(MESSAGES.emailRequired);
    expect(() => emailChangeBody({ ...emailInput, currentPassword: '' }, user, false)).toThrow(
      'Enter your current password.',
    );
    expect(() => emailChangeBody({ ...emailInput, currentPassword: '' }, user, false)).toThrow(FormError);
  });
});

describe('passwordChangeBody', () => {
  it('sends the current and the new password, and the code when given', () => {
    expect(passwordChangeBody(passwordInput, false)).toEqual({
      currentPassword: 'Old-passw0rd',
      password: 'N3w-passw0rd',
    });
    expect(passwordChangeBody({ ...passwordInput, code: 'abcd2345' }, true)).toMatchObject({ mfaToken: 'abcd2345' });
  });

  it("applies the sign-up's password rules, then the confirmation, then the code", () => {
    expect(() => passwordChangeBody({ ...passwordInput, password: 'short', confirmPassword: 'short' }, false)).toThrow(
      MESSAGES.passwordLength,
    );
    expect(() => passwordChangeBody({ ...passwordInput, confirmPassword: 'N3w-passw0rD' }, false)).toThrow(
      MESSAGES.passwordMismatch,
    );
    expect(() => passwordChangeBody(passwordInput, true)).toThrow(EMAIL_MESSAGES.codeNeeded);
  });
});

describe('asksForCode', () => {
  it('is the server asking for the second factor the form did not show', () => {
    expect(asksForCode(new ApiError({ status: 400, code: 'MFA_REQUIRED', msg: EMAIL_MESSAGES.codeNeeded }))).toBe(true);
    expect(asksForCode(new ApiError({ status: 400, code: 'INVALID_MFA_TOKEN', msg: 'Wrong code' }))).toBe(false);
    expect(asksForCode(new FormError(EMAIL_MESSAGES.codeNeeded))).toBe(false);
  });
});
