// The Voice's rewrite calls, used by Convert and by Create's re-rephrase: the convert
// stream (its body read here as events) and the edit-chunk call of the edit pass.
import { CONVERT_MESSAGES, convertEventSchema } from '@ownvoice/shared';
import type { z } from 'zod';
import { api } from '../api';
import { ApiError } from '../api-error';
import { readEvents } from '../sse';
import type { ConvertRequest } from './conversion-run';
import { ConvertRequestError, convertRequestError } from './errors';
import { type ConvertStreamEvent, type EditChunkPayload, editChunkResponseSchema } from './events';

const convertStreamPath = (loraId: string) => `/loras/${encodeURIComponent(loraId)}/convert-stream`;

/**
 * A POST answered with server-sent events (the convert stream, Create's generate stream): resolves
 * with the events once the server accepted the request, or rejects with a ConvertRequestError
 * (the CSRF cache is dropped when it refused the token). `refused` words a refusal from its
 * status and body; `noBody` says what an answer without a body means.
 */
export async function openEventStream<E>(
  path: string,
  { body, signal }: { body: unknown; signal: AbortSignal },
  schema: z.ZodType<E>,
  messages: { refused: (status: number, bodyText: string) => ConvertRequestError; noBody: string },
): Promise<AsyncIterable<E>> {
  const response = await api.stream(path, { body, signal, accept: 'text/event-stream' });
  if (!response.ok) {
    const error = messages.refused(response.status, await response.text().catch(() => ''));
    if (error.csrf) api.csrf.clear();
    throw error;
  }
  if (!response.body) {
    throw new ConvertRequestError(
      messages.noBody,
      new ApiError({ status: response.status, msg: messages.noBody }),
      false,
    );
  }
  return readEvents(response.body, schema);
}

/** POST /loras/:id/convert-stream. */
export const openConvertStream = ({
  loraId,
  text,
  signal,
  variation,
}: ConvertRequest): Promise<AsyncIterable<ConvertStreamEvent>> =>
  openEventStream(
    convertStreamPath(loraId),
    { body: { loraId, text, ...(variation ? { variation } : {}) }, signal },
    convertEventSchema,
    {
      refused: convertRequestError,
      noBody: CONVERT_MESSAGES.streamingError,
    },
  );

/** POST /loras/edit-chunk: the proofread chunk. */
export async function editChunk(payload: EditChunkPayload, signal: AbortSignal): Promise<string> {
  const { editedChunk } = await api.post('/loras/edit-chunk', payload, { schema: editChunkResponseSchema, signal });
  return editedChunk;
}
