// The rewrite's error messages on Convert and Create: what a refused stream request (the
// convert stream, or Create's generate stream), a broken stream and a failed chunk edit say.
import { CONVERT_MESSAGES, isCsrfErrorCode } from '@ownvoice/shared';
import { ApiError, apiErrorFromBody, isApiError } from '../api-error';

/** A stream request (convert or generate) the server refused before streaming. */
export class ConvertRequestError extends Error {
  readonly status: number;
  /** The server's error, for the purchase prompt and for codes such as VOICE_NOT_READY. */
  readonly apiError: ApiError;
  /** The CSRF token was refused; the cached one must be dropped. */
  readonly csrf: boolean;

  constructor(message: string, apiError: ApiError, csrf: boolean) {
    super(message);
    this.name = 'ConvertRequestError';
    this.status = apiError.status;
    this.apiError = apiError;
    this.csrf = csrf;
  }
}

/** Longest plain-text answer shown as is; anything longer is not a message meant for people. */
const MAX_TEXT_MESSAGE = 300;

function plainTextMessage(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '' || trimmed.length > MAX_TEXT_MESSAGE || trimmed.startsWith('<')) return null;
  return trimmed;
}

/**
 * The error for a refused stream request, from its status and body text. `fallback` says what a
 * body without a message means (Convert: 'Failed to convert text').
 */
export function convertRequestError(
  status: number,
  bodyText: string,
  fallback: (status: number) => string = () => CONVERT_MESSAGES.convertFailed,
): ConvertRequestError {
  let body: unknown;
  try {
    body = bodyText.trim() === '' ? undefined : JSON.parse(bodyText);
  } catch {
    body = undefined;
  }

  if (typeof body === 'object' && body !== null) {
    const apiError = apiErrorFromBody(status, body);
    const msg = (body as { msg?: unknown }).msg;
    const serverMessage = typeof msg === 'string' && msg.trim() !== '' ? msg : null;
    if (status === 403 && isCsrfErrorCode(apiError.code)) {
      return new ConvertRequestError(CONVERT_MESSAGES.csrfError(serverMessage ?? apiError.msg), apiError, true);
    }
    return new ConvertRequestError(serverMessage ?? fallback(status), apiError, false);
  }

  const message = plainTextMessage(bodyText) ?? fallback(status);
  return new ConvertRequestError(message, new ApiError({ status, msg: message }), false);
}

/** A request that failed without an answer (network, CSRF token fetch). */
export function convertFailureMessage(error: unknown): string {
  if (error instanceof ConvertRequestError) return error.message;
  if (isApiError(error) && error.msg) return error.msg;
  return CONVERT_MESSAGES.convertFailed;
}

/** A stream that broke while being read. */
export function streamReadErrorMessage(error: unknown): string {
  return error instanceof Error && error.message ? error.message : CONVERT_MESSAGES.streamingError;
}

/** A chunk edit that failed: the server's msg, else the error's message, else the fallback. */
export function editErrorMessage(error: unknown): string {
  if (isApiError(error) && error.msg) return error.msg;
  if (error instanceof Error && error.message) return error.message;
  return CONVERT_MESSAGES.editFailed;
}
