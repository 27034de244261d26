// Convert (voices-convert-create.md §3, §5, §7): the request, the server-sent events of a
// conversion, and the edit pass.
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';

export const CONVERT_MESSAGES = {
  selectVoice: 'Please select a Voice',
  emptyText: 'Please enter some text to convert',
  noAwakeVoices: 'No awake Voices available. Create and wake a Voice first (from the Dashboard).',
  textTooLong: (max: number) =>
    `That is too much text to convert at once: at most ${max.toLocaleString('en-US')} characters. Convert it in parts.`,
} as const;

/** Longest text one conversion takes (about 30,000 words). */
export const MAX_CONVERT_CHARS = 200_000;
/** Chunks the edit pass edits at once (§9). */
export const EDIT_PASS_CONCURRENCY = 3;
/** What a chunk whose attempts ran out says in place of a rewrite (§4). */
export const CHUNK_ERROR_PREFIX = '[Error converting chunk';
export const chunkErrorMarker = (chunkIndex: number, reason: string): string =>
  `${CHUNK_ERROR_PREFIX} ${chunkIndex + 1}: ${reason}]`;

export const convertRequestSchema = z.object({
  loraId: z.string().regex(ID_PATTERN).optional(),
  text: z.string().max(MAX_CONVERT_CHARS, CONVERT_MESSAGES.textTooLong(MAX_CONVERT_CHARS)),
});

export const chunkPositionSchema = z.object({ start: z.number().int(), end: z.number().int() });
export type ChunkPosition = z.infer<typeof chunkPositionSchema>;

export const convertEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chunk_positions'), chunkPositions: z.array(chunkPositionSchema), baseText: z.string() }),
  z.object({ type: z.literal('chunk'), chunkIndex: z.number().int(), text: z.string() }),
  z.object({ type: z.literal('chunk_reroll'), chunkIndex: z.number().int(), reason: z.string() }),
  z.object({ type: z.literal('complete') }),
  z.object({ type: z.literal('error'), error: z.string() }),
]);
export type ConvertEvent = z.infer<typeof convertEventSchema>;

export const editChunkRequestSchema = z.object({
  originalChunk: z.string().min(1, 'originalChunk is required').max(20_000),
  rephrasedChunk: z.string().min(1, 'rephrasedChunk is required').max(40_000),
  chunkIndex: z.number().int().min(0),
});
export const editChunkResponseSchema = z.object({ editedChunk: z.string() });
