import { describe, expect, it } from 'vitest';
import { apiErrorFromBody } from './api-error';

describe('apiErrorFromBody', () => {
  it('keeps the reason and the limit type of an insufficient-limit answer', () => {
    const error = apiErrorFromBody(400, {
      msg: 'No storage slots left',
      code: 'INSUFFICIENT_LIMIT',
      reason: 'insufficient_limit',
      limitType: 'storageSlots',
    });
    expect(error).toMatchObject({ status: 400, reason: 'insufficient_limit', limitType: 'storageSlots' });
  });

  it('keeps them from an answer outside the shared shape too', () => {
    const error = apiErrorFromBody(400, { msg: 'Out of hours', code: 'SOMETHING_NEW', reason: 'insufficient_limit' });
    expect(error).toMatchObject({ msg: 'Out of hours', code: 'SOMETHING_NEW', reason: 'insufficient_limit' });
  });

  it('says when a sensitive admin action wants a second-factor code', () => {
    const shaped = apiErrorFromBody(403, { msg: 'Enter a code', code: 'MFA_TOKEN_REQUIRED', requiresMFAToken: true });
    expect(shaped.requiresMFAToken).toBe(true);
    const loose = apiErrorFromBody(403, { msg: 'Wrong code', code: 'SOMETHING_NEW', requiresMFAToken: true });
    expect(loose).toMatchObject({ msg: 'Wrong code', requiresMFAToken: true });
    expect(apiErrorFromBody(403, { msg: 'Admins only', code: 'FORBIDDEN' }).requiresMFAToken).toBe(false);
    expect(apiErrorFromBody(502, 'Bad gateway').requiresMFAToken).toBe(false);
  });
});
