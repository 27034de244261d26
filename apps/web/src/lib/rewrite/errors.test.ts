import { describe, expect, it } from 'vitest';
import { ApiError } from '../api-error';
import {
  ConvertRequestError,
  convertFailureMessage,
  convertRequestError,
  editErrorMessage,
  streamReadErrorMessage,
} from './errors';

describe('convertRequestError', () => {
  it('uses the server msg and keeps its code and reason', () => {
    const error = convertRequestError(400, '{"msg":"Please enter some text to convert","code":"VALIDATION_ERROR"}');
    expect(error).toBeInstanceOf(ConvertRequestError);
    expect(error.message).toBe('Please enter some text to convert');
    expect(error.csrf).toBe(false);
    expect(error.apiError.code).toBe('VALIDATION_ERROR');

    const limit = convertRequestError(400, '{"msg":"Out","reason":"insufficient_limit","limitType":"activationHours"}');
    expect(limit.apiError).toMatchObject({ status: 400, reason: 'insufficient_limit', limitType: 'activationHours' });
  });

  it('reports a CSRF refusal as "CSRF error: ..." and flags it', () => {
    const error = convertRequestError(403, '{"msg":"Invalid CSRF token","code":"CSRF_INVALID_TOKEN"}');
    expect(error.message).toBe('CSRF error: Invalid CSRF token');
    expect(error.csrf).toBe(true);
    // A 403 for another reason is not a CSRF error.
    expect(convertRequestError(403, '{"msg":"Not yours","code":"FORBIDDEN"}').csrf).toBe(false);
  });

  it('uses a short plain-text answer, else "Failed to convert text"', () => {
    expect(convertRequestError(502, 'Bad gateway').message).toBe('Bad gateway');
    expect(convertRequestError(502, '<html><body>502</body></html>').message).toBe('Failed to convert text');
    expect(convertRequestError(500, '').message).toBe('Failed to convert text');
    expect(convertRequestError(500, '{"code":"INTERNAL"}').message).toBe('Failed to convert text');
    expect(convertRequestError(500, 'x'.repeat(301)).message).toBe('Failed to convert text');
  });
});

describe('other Convert messages', () => {
  it('a failed request without an answer', () => {
    expect(convertFailureMessage(new TypeError('Failed to fetch'))).toBe('Failed to convert text');
    expect(convertFailureMessage(new ApiError({ status: 500, msg: 'CSRF token unavailable' }))).toBe(
      'CSRF token unavailable',
    );
  });

  it('a broken stream', () => {
    expect(streamReadErrorMessage(new Error('network error'))).toBe('network error');
    expect(streamReadErrorMessage('??')).toBe('Streaming error');
  });

  it('a failed chunk edit: msg, else message, else the fallback', () => {
    expect(editErrorMessage(new ApiError({ status: 500, msg: 'Editor busy' }))).toBe('Editor busy');
    expect(editErrorMessage(new Error('Timed out'))).toBe('Timed out');
    expect(editErrorMessage(undefined)).toBe('Failed to edit chunk');
  });
});
