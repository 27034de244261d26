// The app's one API client. The session layer registers what happens when the server says the
// session is gone, so every feature's calls share one token, one CSRF cache and one logout path.

import { createApiClient } from './api-client';
import type { ApiError } from './api-error';
import { readToken } from './token-storage';

let sessionRejectedHandler: ((error: ApiError) => void) | undefined;

export function setSessionRejectedHandler(handler: ((error: ApiError) => void) | undefined): void {
  sessionRejectedHandler = handler;
}

export const api = createApiClient({
  baseUrl: '/api',
  getToken: readToken,
  onSessionRejected: (error) => sessionRejectedHandler?.(error),
});
