// Convert: the request (POST /loras/:id/convert-stream), the server-sent events of a conversion,
// and the edit pass (POST /loras/edit-chunk).
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';
import { ERROR_CODES } from './errors.js';

export const CONVERT_MESSAGES = {
  selectVoice: 'Please select a Voice',
  emptyText: 'Please enter some text to convert',
  noAwakeVoices: 'No awake Voices available. Create and wake a Voice first (from the Dashboard).',
  textTooLong: (max: number) =>
    `That is too much text to convert at once: at most ${max.toLocaleString('en-US')} characters. Convert it in parts.`,
  fetchVoicesFailed: 'Failed to fetch Voices',
  convertFailed: 'Failed to convert text',
  streamingError: 'Streaming error',
  editFailed: 'Failed to edit chunk',
  editorPlaceholder: 'Write something …',
  csrfError: (message: string) => `CSRF error: ${message}`,
  /** The inline placeholder of a chunk being rerolled; N counts from 1. */
  chunkError: (chunkNumber: number, reason: string) => `Error converting chunk ${chunkNumber}: ${reason}`,
} as const;

/** The only link schemes the Convert editor accepts; other links lose their target. */
export const ALLOWED_LINK_SCHEMES = [
  'http',
  'https',
  'ftp',
  'ftps',
  'mailto',
  'tel',
  'callto',
  'sms',
  'cid',
  'xmpp',
] as const;

/** Editor history: this many undo steps, and a new undo group after this much idle time. */
export const EDITOR_UNDO_DEPTH = 100;
export const EDITOR_NEW_GROUP_DELAY_MS = 500;
/** Headings the editor keeps; the toolbar offers only the first three. */
export const EDITOR_HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** Longest text one conversion takes (about 30,000 words). */
export const MAX_CONVERT_CHARS = 200_000;
/** Chunks the edit pass edits at once, so one person's pass cannot hold every model sequence. */
export const EDIT_PASS_CONCURRENCY = 3;
/** What a chunk whose attempts ran out says in place of a rewrite, so a conversion always ends. */
export const CHUNK_ERROR_PREFIX = '[Error converting chunk';
export const chunkErrorMarker = (chunkIndex: number, reason: string): string =>
  `${CHUNK_ERROR_PREFIX} ${chunkIndex + 1}: ${reason}]`;

/** A chunk's rewrite that failed: nothing written, or only its error marker. */
export const isFailedRewrite = (text: string): boolean => {
  const trimmed = text.trim();
  return trimmed === '' || trimmed.startsWith(CHUNK_ERROR_PREFIX);
};

/**
 * Whether a rewrite gave the person anything in their Voice: at least one chunk that did not fail.
 * Create charges its short content only then (the server refunds otherwise, and the page says so).
 */
export const rewriteIsUsable = (chunkTexts: readonly string[]): boolean =>
  chunkTexts.some((text) => !isFailedRewrite(text));

/** Highest `variation` a convert request may ask for. */
export const MAX_REWRITE_VARIATION = 1_000_000;

export const convertRequestSchema = z.object({
  loraId: z.string().regex(ID_PATTERN).optional(),
  text: z.string().max(MAX_CONVERT_CHARS, CONVERT_MESSAGES.textTooLong(MAX_CONVERT_CHARS)),
  /** Another rewrite than the default one (Re-rephrase, a retry): the Voice samples with this seed. */
  variation: z.number().int().min(0).max(MAX_REWRITE_VARIATION).optional(),
});

/**
 * POST /loras/:id/convert: the whole conversion at once, for programs. A passage the Voice could
 * not write is left as the text has it and listed in `failed` (0-based), to retry with a variation.
 */
export const convertWholeResponseSchema = z.object({
  text: z.string(),
  passages: z.number().int().nonnegative(),
  passagesInVoice: z.number().int().nonnegative(),
  failed: z.array(z.number().int().nonnegative()),
});
export type ConvertWholeResponse = z.infer<typeof convertWholeResponseSchema>;

export const chunkPositionSchema = z.object({
  start: z.number().int().nonnegative(),
  end: z.number().int().nonnegative(),
});
export type ChunkPosition = z.infer<typeof chunkPositionSchema>;

export const convertEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('chunk_positions'), chunkPositions: z.array(chunkPositionSchema), baseText: z.string() }),
  z.object({ type: z.literal('chunk'), chunkIndex: z.number().int().nonnegative(), text: z.string() }),
  z.object({ type: z.literal('chunk_reroll'), chunkIndex: z.number().int().nonnegative(), reason: z.string() }),
  z.object({ type: z.literal('complete') }),
  /** `code` is one of ERROR_CODES: VOICE_NOT_READY when the Voice went to sleep mid-stream. */
  z.object({ type: z.literal('error'), error: z.string(), code: z.enum(ERROR_CODES).optional() }),
]);
export type ConvertEvent = z.infer<typeof convertEventSchema>;

export const editChunkRequestSchema = z.object({
  originalChunk: z.string().min(1, 'originalChunk is required').max(20_000),
  rephrasedChunk: z.string().min(1, 'rephrasedChunk is required').max(40_000),
  chunkIndex: z.number().int().min(0),
});
export const editChunkResponseSchema = z.object({ editedChunk: z.string() });
