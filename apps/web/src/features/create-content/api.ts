// Create's calls: the generate stream and the interactive step. The re-rephrase and the
// edit pass use the shared rewrite calls (lib/rewrite/api).
import {
  type ContentFormat,
  type CreateEvent,
  createEventSchema,
  type InteractiveAction,
  type InteractiveState,
  interactiveNextResponseSchema,
} from '@ownvoice/shared';
import { api } from '../../lib/api';
import { openEventStream } from '../../lib/rewrite/api';
import { CREATE_ERRORS } from './constants';
import { generateRequestError } from './errors';

export interface GenerateRequest {
  prompt: string;
  format: ContentFormat;
  loraId: string;
  referenceFile: File | null;
  signal: AbortSignal;
}

/** POST /content/generate-stream (multipart: the browser writes the boundary). */
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

  return openEventStream('/content/generate-stream', { body, signal }, createEventSchema, {
    refused: generateRequestError,
    noBody: CREATE_ERRORS.generateFailed,
  });
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
