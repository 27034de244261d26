// Create's error messages: the server's msg first; a refused request without
// one says 'HTTP error! status: n'; a request that never got an answer says what broke, else
// 'Unknown error'; interactive calls say the server's message, else 'Failed'.
import { isApiError } from '../../lib/api-error';
import { type ConvertRequestError, convertRequestError } from '../../lib/rewrite/errors';
import { CREATE_ERRORS } from './constants';

/** A generate-stream request the server refused, from its status and body text. */
export const generateRequestError = (status: number, bodyText: string): ConvertRequestError =>
  convertRequestError(status, bodyText, CREATE_ERRORS.httpError);

/** A generate request that failed without an answer (network, CSRF token fetch). */
export function generateFailureMessage(error: unknown): string {
  if (isApiError(error)) return error.msg || CREATE_ERRORS.generateFailed;
  if (error instanceof Error) return error.message || CREATE_ERRORS.generateFailed;
  return CREATE_ERRORS.unknown;
}

/** An interactive step that failed. */
export function interactiveErrorMessage(error: unknown): string {
  if (isApiError(error)) return error.msg || error.errors[0]?.msg || CREATE_ERRORS.interactiveFailed;
  return CREATE_ERRORS.interactiveFailed;
}
