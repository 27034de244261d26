import { describe, expect, it } from 'vitest';
import { ApiError } from './api-error';
import { detectInsufficientLimit } from './insufficient-limit';

const error = (status: number, msg: string, extra: Partial<ConstructorParameters<typeof ApiError>[0]> = {}) =>
  new ApiError({ status, msg, ...extra });

describe('detectInsufficientLimit', () => {
  it('takes the resource from reason and limitType', () => {
    const answer = error(400, 'No storage left', { reason: 'insufficient_limit', limitType: 'storageSlots' });
    expect(detectInsufficientLimit(answer)).toEqual({ kind: 'limit', resource: 'storageSlots' });
  });

  it('reads the resource from the message when limitType is missing or unknown', () => {
    const unknownType = error(400, 'You have no activation hours left', {
      reason: 'insufficient_limit',
      limitType: 'somethingNew',
    });
    expect(detectInsufficientLimit(unknownType)).toEqual({ kind: 'limit', resource: 'activationHours' });
    expect(detectInsufficientLimit(error(400, 'Out of limit', { code: 'INSUFFICIENT_LIMIT' }))).toEqual({
      kind: 'limit',
      resource: null,
    });
  });

  it('recognises a 400 whose message names a resource or a limit', () => {
    expect(detectInsufficientLimit(error(400, 'Insufficient model training credits'))).toEqual({
      kind: 'limit',
      resource: 'modelsTrained',
    });
    expect(detectInsufficientLimit(error(400, 'No proofreads left this month'))).toEqual({
      kind: 'limit',
      resource: 'chunkEdits',
    });
    expect(detectInsufficientLimit(error(400, 'Monthly usage exceeded'))).toEqual({ kind: 'limit', resource: null });
    expect(detectInsufficientLimit(error(400, 'You reached your limit'))).toEqual({ kind: 'limit', resource: null });
  });

  it('reads insufficient credits with or without the required amount', () => {
    expect(detectInsufficientLimit(error(402, 'Insufficient credits. Required: 1,200'))).toEqual({
      kind: 'credits',
      required: 1200,
    });
    expect(detectInsufficientLimit(error(400, 'insufficient credits'))).toEqual({ kind: 'credits', required: null });
    expect(detectInsufficientLimit(new Error('Insufficient credits (Required: 5)'))).toEqual({
      kind: 'credits',
      required: 5,
    });
  });

  it('leaves every other error alone', () => {
    expect(detectInsufficientLimit(error(413, 'Upload exceeds the size limit'))).toBeNull();
    expect(detectInsufficientLimit(error(429, 'Rate limit reached'))).toBeNull();
    expect(
      detectInsufficientLimit(
        error(400, 'Files too large: a.pdf. Maximum size per file: 10 MB', { code: 'VALIDATION_ERROR' }),
      ),
    ).toBeNull();
    expect(detectInsufficientLimit(error(400, 'Training requires at least 20,000 characters.'))).toBeNull();
    expect(detectInsufficientLimit(error(404, 'Voice not found'))).toBeNull();
    expect(detectInsufficientLimit(new Error('Network down'))).toBeNull();
    expect(detectInsufficientLimit('limit')).toBeNull();
  });
});

describe('an action that lacks several resources', () => {
  it('reads every one the server names, the first as the resource', () => {
    const error = new ApiError({
      status: 400,
      msg: 'You have no voice storage slots and no trainable voices left in your usage limits.',
      code: 'INSUFFICIENT_LIMIT',
      reason: 'insufficient_limit',
      limitType: 'storageSlots',
      limitTypes: ['storageSlots', 'modelsTrained'],
    });
    expect(detectInsufficientLimit(error)).toEqual({
      kind: 'limit',
      resource: 'storageSlots',
      also: ['modelsTrained'],
    });
  });
});
