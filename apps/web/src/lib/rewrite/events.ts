// The events of POST /loras/:id/convert-stream (spec §3 "Convert stream event", §7), one JSON
// object per `data:` line. Events of another type, or that do not match, are ignored.
import { type ConvertEvent, convertEventSchema } from '@ownvoice/shared';
import { readSseData } from '../sse';

export { type ChunkPosition, chunkPositionSchema } from '@ownvoice/shared';
export type ConvertStreamEvent = ConvertEvent;

/** One `data:` payload as an event; null when it is not JSON or not an event of this stream. */
export function parseConvertEvent(data: string): ConvertStreamEvent | null {
  let json: unknown;
  try {
    json = JSON.parse(data);
  } catch {
    return null;
  }
  const parsed = convertEventSchema.safeParse(json);
  return parsed.success ? parsed.data : null;
}

/** POST /loras/edit-chunk (spec §3 "Edit-chunk payload"). */
export interface EditChunkPayload {
  originalChunk: string;
  rephrasedChunk: string;
  chunkIndex: number;
}

export { editChunkResponseSchema } from '@ownvoice/shared';

/** The events of a convert-stream body, in order; payloads that are not events are skipped. */
export async function* readConvertEvents(
  stream: ReadableStream<Uint8Array>,
): AsyncGenerator<ConvertStreamEvent, void, undefined> {
  for await (const data of readSseData(stream)) {
    const event = parseConvertEvent(data);
    if (event) yield event;
  }
}
