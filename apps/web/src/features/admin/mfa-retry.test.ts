import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { filterMfaCode, isMfaCodeComplete, mfaDecision } from './mfa-retry';

const refusal = (code: string, msg: string, requiresMFAToken = true) =>
  new ApiError({ status: 403, code, msg, requiresMFAToken });

describe('the second-factor retry', () => {
  it('asks for a code, without complaint, when the first attempt lacked one', () => {
    expect(mfaDecision(refusal('MFA_TOKEN_REQUIRED', 'A code is required'), false)).toEqual({
      kind: 'ask',
      message: null,
    });
  });

  it("asks again with the server's reason when a sent code was refused", () => {
    expect(mfaDecision(refusal('INVALID_MFA_TOKEN', 'Invalid or already used code'), true)).toEqual({
      kind: 'ask',
      message: 'Invalid or already used code',
    });
    expect(mfaDecision(refusal('INVALID_MFA_TOKEN', ''), true)).toMatchObject({ kind: 'ask' });
  });

  it('fails on anything else: other refusals, network errors', () => {
    expect(mfaDecision(refusal('FORBIDDEN', 'Super admins only', false), true)).toEqual({ kind: 'fail' });
    expect(mfaDecision(refusal('MFA_REQUIRED', 'Turn on two-factor', false), false)).toEqual({ kind: 'fail' });
    expect(mfaDecision(new TypeError('Failed to fetch'), false)).toEqual({ kind: 'fail' });
  });
});

describe('the code box', () => {
  it('keeps letters and digits only, at most 8', () => {
    expect(filterMfaCode(' 123 456 ')).toBe('123456');
    expect(filterMfaCode('abcd-efgh')).toBe('abcdefgh');
    expect(filterMfaCode('AbCd1234XYZ')).toBe('AbCd1234');
    expect(filterMfaCode('<script>')).toBe('script');
  });

  it('is ready from 6 characters', () => {
    expect(isMfaCodeComplete('12345')).toBe(false);
    expect(isMfaCodeComplete('123456')).toBe(true);
    expect(isMfaCodeComplete('abcdefgh')).toBe(true);
  });
});
