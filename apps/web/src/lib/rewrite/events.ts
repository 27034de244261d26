// The shapes of the rewrite calls: the convert stream's events and the edit-chunk call. The
// stream's events are read with lib/sse readEvents and the shared convertEventSchema.
import type { ConvertEvent } from '@ownvoice/shared';

export { type ChunkPosition, chunkPositionSchema } from '@ownvoice/shared';
export type ConvertStreamEvent = ConvertEvent;

/** POST /loras/edit-chunk. */
export interface EditChunkPayload {
  originalChunk: string;
  rephrasedChunk: string;
  chunkIndex: number;
}

export { editChunkResponseSchema } from '@ownvoice/shared';
