import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { createErrorMessage } from './create-error';

describe('createErrorMessage', () => {
  it('names the status and the server message', () => {
    const error = new ApiError({ status: 400, msg: 'Error reading some files' });
    expect(createErrorMessage(error)).toBe('Error 400: Error reading some files');
  });

  it('falls back to the fixed message', () => {
    expect(createErrorMessage(new ApiError({ status: 500, msg: '' }))).toBe('Error 500: Failed to create LoRA');
    expect(createErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed to create LoRA');
  });
});
