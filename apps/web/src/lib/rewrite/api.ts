// The Voice's rewrite calls (spec §7), used by Convert and by Create's re-rephrase: the convert
// stream, read with fetch directly because the API client only speaks JSON, and the edit-chunk
// call of the edit pass.
import { CONVERT_MESSAGES, CSRF_HEADER } from '@ownvoice/shared';
import { api } from '../api';
import { ApiError } from '../api-error';
import { readToken } from '../token-storage';
import type { ConvertRequest } from './conversion-run';
import { ConvertRequestError, convertRequestError } from './errors';
import { type ConvertStreamEvent, type EditChunkPayload, editChunkResponseSchema, readConvertEvents } from './events';

const convertStreamPath = (loraId: string) => `/api/loras/${encodeURIComponent(loraId)}/convert-stream`;

/**
 * POST /loras/:id/convert-stream: resolves with the stream's events once the server accepted the
 * request, or rejects with a ConvertRequestError (the CSRF cache is dropped when it refused the token).
 */
export async function openConvertStream({
  loraId,
  text,
  signal,
}: ConvertRequest): Promise<AsyncIterable<ConvertStreamEvent>> {
  const headers = new Headers({ 'Content-Type': 'application/json', Accept: 'text/event-stream' });
  const token = readToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  headers.set(CSRF_HEADER, await api.csrf.get());

  const response = await fetch(convertStreamPath(loraId), {
    method: 'POST',
    headers,
    body: JSON.stringify({ loraId, text }),
    credentials: 'include',
    signal,
  });
  if (!response.ok) {
    const error = convertRequestError(response.status, await response.text().catch(() => ''));
    if (error.csrf) api.csrf.clear();
    throw error;
  }
  if (!response.body) {
    const message = CONVERT_MESSAGES.streamingError;
    throw new ConvertRequestError(message, new ApiError({ status: response.status, msg: message }), false);
  }
  return readConvertEvents(response.body);
}

/** POST /loras/edit-chunk: the proofread chunk. */
export async function editChunk(payload: EditChunkPayload, signal: AbortSignal): Promise<string> {
  const { editedChunk } = await api.post('/loras/edit-chunk', payload, { schema: editChunkResponseSchema, signal });
  return editedChunk;
}
