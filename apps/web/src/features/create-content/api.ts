// Create's calls (spec §7): the generate stream (multipart; its body read here as events) and the
// interactive step. The re-rephrase and the edit pass use the
// shared rewrite calls (lib/rewrite/api).
import {
  type ContentFormat,
  type CreateEvent,
  createEventSchema,
  type InteractiveAction,
  type InteractiveState,
  interactiveNextResponseSchema,
} from '@ownvoice/shared';
import { api } from '../../lib/api';
import { ApiError } from '../../lib/api-error';
import { ConvertRequestError } from '../../lib/rewrite/errors';
import { readSseData } from '../../lib/sse';
import { CREATE_ERRORS } from './constants';
import { generateRequestError } from './errors';

export interface GenerateRequest {
  prompt: string;
  format: ContentFormat;
  loraId: string;
  referenceFile: File | null;
  signal: AbortSignal;
}

/** One `data:` payload as a Create event; null when it is not JSON or not an event of this stream. */
export function parseCreateEvent(data: string): CreateEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = createEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

async function* readCreateEvents(stream: ReadableStream<Uint8Array>): AsyncGenerator<CreateEvent, void, undefined> {
  for await (const data of readSseData(stream)) {
    const event = parseCreateEvent(data);
    if (event) yield event;
  }
}

/**
 * POST /content/generate-stream: resolves with the stream's events once the server accepted the
 * request, or rejects with a ConvertRequestError (the CSRF cache is dropped when it refused the token).
 */
export async function openGenerateStream({
  prompt,
  format,
  loraId,
  referenceFile,
  signal,
}: GenerateRequest): Promise<AsyncIterable<CreateEvent>> {
  const body = new FormData();
  body.set('prompt', prompt);
  body.set('format', format);
  body.set('selectedLora', loraId);
  if (referenceFile) body.set('referenceFile', referenceFile, referenceFile.name);

  const response = await api.stream('/content/generate-stream', { body, signal, accept: 'text/event-stream' });
  if (!response.ok) {
    const error = generateRequestError(response.status, await response.text().catch(() => ''));
    if (error.csrf) api.csrf.clear();
    throw error;
  }
  if (!response.body) {
    const message = CREATE_ERRORS.generateFailed;
    throw new ConvertRequestError(message, new ApiError({ status: response.status, msg: message }), false);
  }
  return readCreateEvents(response.body);
}

/** POST /content/interactive/next: the session's next state. */
export async function interactiveNext(
  state: InteractiveState,
  action: InteractiveAction,
  signal?: AbortSignal,
): Promise<InteractiveState> {
  const answer = await api.post(
    '/content/interactive/next',
    { state, action },
    { schema: interactiveNextResponseSchema, ...(signal ? { signal } : {}) },
  );
  return answer.state;
}
