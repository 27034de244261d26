import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { isVoiceId, voiceMissing } from './voice-missing';

const apiError = (status: number) => new ApiError({ status, msg: 'x', code: 'NOT_FOUND' });

describe('voiceMissing', () => {
  it('finds an id that cannot be a Voice missing without asking the server', () => {
    expect(isVoiceId('not-an-id')).toBe(false);
    expect(voiceMissing('not-an-id', null)).toBe('malformed');
    expect(voiceMissing('0123456789ABCDEF01234567', null)).toBe('malformed');
  });

  it('takes the server’s 404 for a Voice that does not exist, and nothing else', () => {
    const id = '000000000000000000000000';
    expect(isVoiceId(id)).toBe(true);
    expect(voiceMissing(id, apiError(404))).toBe('not_found');
    expect(voiceMissing(id, apiError(500))).toBeNull();
    expect(voiceMissing(id, new Error('offline'))).toBeNull();
    expect(voiceMissing(id, null)).toBeNull();
  });
});
