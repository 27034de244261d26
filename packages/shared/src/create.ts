// Create Content, Quick mode (POST /content/generate-stream): the base model drafts from a
// prompt, thinking first, and the Voice then rewrites the draft chunk by chunk, all in one
// stream of server-sent events.
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';
import { chunkPositionSchema } from './convert.js';
import { ERROR_CODES } from './errors.js';

/** What the draft should be; each gives the model a length and shape to aim at. */
export const CONTENT_FORMATS = ['blog_post', 'email', 'social_post', 'newsletter', 'article', 'free'] as const;
export type ContentFormat = (typeof CONTENT_FORMATS)[number];

export const CONTENT_FORMAT_LABELS: Record<ContentFormat, string> = {
  blog_post: 'Blog post',
  email: 'E-mail',
  social_post: 'Social media post',
  newsletter: 'Newsletter',
  article: 'Article',
  free: 'Anything (as the prompt says)',
};

export const MAX_PROMPT_CHARS = 4000;

export const CREATE_MESSAGES = {
  promptRequired: 'Please enter a prompt',
  selectVoice: 'Please select a Voice',
  promptTooLong: `The prompt can be at most ${MAX_PROMPT_CHARS.toLocaleString('en-US')} characters`,
} as const;

/** The multipart fields of POST /content/generate-stream (referenceFile travels as a file part). */
export const generateFieldsSchema = z.object({
  prompt: z
    .string({ error: CREATE_MESSAGES.promptRequired })
    .trim()
    .min(1, CREATE_MESSAGES.promptRequired)
    .max(MAX_PROMPT_CHARS, CREATE_MESSAGES.promptTooLong),
  format: z.enum(CONTENT_FORMATS).default('free'),
  selectedLora: z.string({ error: CREATE_MESSAGES.selectVoice }).regex(ID_PATTERN, CREATE_MESSAGES.selectVoice),
});

export const CREATE_STAGES = ['content', 'rephrase'] as const;
const stage = z.enum(CREATE_STAGES);

/**
 * On the stream's last event: the short content this Create was charged, 1 when any of its rewrite
 * came out in the Voice, 0 when it was given back (decision 37). Absent where the stream cannot
 * know it yet (/v1 settles once it has sent the passages).
 */
const chargedSchema = z.number().int().min(0).max(1).optional();

export const createEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('generation_start'), stage }),
  z.object({ type: z.literal('thinking_start'), stage }),
  z.object({ type: z.literal('thinking'), stage, text: z.string() }),
  z.object({ type: z.literal('thinking_end'), stage }),
  z.object({ type: z.literal('content_chunk'), stage, text: z.string() }),
  z.object({ type: z.literal('generation_complete'), stage, text: z.string() }),
  z.object({
    type: z.literal('chunk_positions'),
    stage,
    chunkPositions: z.array(chunkPositionSchema),
    baseText: z.string(),
  }),
  z.object({ type: z.literal('chunk'), stage, chunkIndex: z.number().int().nonnegative(), text: z.string() }),
  z.object({ type: z.literal('chunk_reroll'), stage, chunkIndex: z.number().int().nonnegative(), reason: z.string() }),
  z.object({ type: z.literal('complete'), charged: chargedSchema }),
  /** `code` is one of ERROR_CODES: VOICE_NOT_READY when the Voice went to sleep mid-stream. */
  z.object({
    type: z.literal('error'),
    error: z.string(),
    code: z.enum(ERROR_CODES).optional(),
    charged: chargedSchema,
  }),
]);
export type CreateEvent = z.infer<typeof createEventSchema>;
