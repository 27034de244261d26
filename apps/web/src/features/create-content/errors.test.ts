import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api-error';
import { generateFailureMessage, generateRequestError, interactiveErrorMessage } from './errors';

describe('Create errors', () => {
  it('a refused generate request: server msg, else HTTP error! status: n', () => {
    expect(generateRequestError(400, '{"msg":"Please select a Voice"}').message).toBe('Please select a Voice');
    expect(generateRequestError(500, '{}').message).toBe('HTTP error! status: 500');
    expect(generateRequestError(502, '').message).toBe('HTTP error! status: 502');
    const csrf = generateRequestError(403, '{"msg":"Invalid CSRF token","code":"CSRF_INVALID_TOKEN"}');
    expect(csrf.csrf).toBe(true);
  });

  it('a generate request without an answer', () => {
    expect(generateFailureMessage(new ApiError({ status: 500, msg: 'CSRF token unavailable' }))).toBe(
      'CSRF token unavailable',
    );
    expect(generateFailureMessage(new Error(''))).toBe('Failed to generate content');
    expect(generateFailureMessage(undefined)).toBe('Unknown error');
  });

  it('an interactive step: server message, else Failed', () => {
    expect(interactiveErrorMessage(new ApiError({ status: 400, msg: 'Nope' }))).toBe('Nope');
    expect(interactiveErrorMessage(new TypeError('Failed to fetch'))).toBe('Failed');
  });
});
