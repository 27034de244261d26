// The shapes of the rewrite calls (spec §3 "Convert stream event", "Edit-chunk payload", §7). The
// stream's events are read with lib/sse readEvents and the shared convertEventSchema.
import type { ConvertEvent } from '@ownvoice/shared';

export { type ChunkPosition, chunkPositionSchema } from '@ownvoice/shared';
export type ConvertStreamEvent = ConvertEvent;

/** POST /loras/edit-chunk (spec §3 "Edit-chunk payload"). */
export interface EditChunkPayload {
  originalChunk: string;
  rephrasedChunk: string;
  chunkIndex: number;
}

export { editChunkResponseSchema } from '@ownvoice/shared';
