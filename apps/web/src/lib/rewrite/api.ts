// The Voice's rewrite calls (spec §7), used by Convert and by Create's re-rephrase: the convert
// stream (its body read here as events) and the edit-chunk call of the edit pass.
import { CONVERT_MESSAGES } from '@ownvoice/shared';
import { api } from '../api';
import { ApiError } from '../api-error';
import type { ConvertRequest } from './conversion-run';
import { ConvertRequestError, convertRequestError } from './errors';
import { type ConvertStreamEvent, type EditChunkPayload, editChunkResponseSchema, readConvertEvents } from './events';

const convertStreamPath = (loraId: string) => `/loras/${encodeURIComponent(loraId)}/convert-stream`;

/**
 * POST /loras/:id/convert-stream: resolves with the stream's events once the server accepted the
 * request, or rejects with a ConvertRequestError (the CSRF cache is dropped when it refused the token).
 */
export async function openConvertStream({
  loraId,
  text,
  signal,
}: ConvertRequest): Promise<AsyncIterable<ConvertStreamEvent>> {
  const response = await api.stream(convertStreamPath(loraId), {
    body: { loraId, text },
    signal,
    accept: 'text/event-stream',
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
