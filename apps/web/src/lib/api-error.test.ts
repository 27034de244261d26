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
});
