// The part of OpenAI's chat completions and models protocol that writing in a Voice uses. Fields
// OpenAI defines and a Voice has no use for (temperature, max_tokens, …) are accepted and
// ignored, so tools that always send them work; those that would change the answer's shape
// (more than one choice, tools, JSON output) are refused with a reason.
import { CONTENT_FORMATS } from '@ownvoice/shared';
import { z } from 'zod';

const textPart = z.object({ type: z.literal('text'), text: z.string().max(100_000) });

export const chatMessageSchema = z.looseObject({
  role: z.enum(['system', 'developer', 'user', 'assistant']),
  /** A string, or OpenAI's list of content parts, of which only text is read. */
  content: z.union([z.string().max(100_000), z.array(textPart).max(100)]),
});
export type ChatMessageIn = z.infer<typeof chatMessageSchema>;

export const chatCompletionRequestSchema = z.looseObject({
  /** The Voice's id, as /v1/models lists it; any other is 404 model_not_found (services/voice-chat.service.ts). */
  model: z.string().min(1, 'model must be the id of one of your awake Voices (GET /v1/models lists them).'),
  messages: z.array(chatMessageSchema).min(1, 'messages must hold at least one message.').max(100),
  stream: z.boolean().default(false),
  stream_options: z.looseObject({ include_usage: z.boolean().optional() }).nullish(),
  n: z.literal(1, 'A Voice writes one answer per request: leave n out or set it to 1.').nullish(),
  tools: z.array(z.unknown()).max(0, 'A Voice writes prose and calls no tools: send no tools.').nullish(),
  response_format: z
    .looseObject({ type: z.literal('text', 'A Voice writes prose: response_format can only be text.') })
    .nullish(),
  /** OwnVoice's own: the kind of text, as Create offers it ("free" by default). */
  format: z.enum(CONTENT_FORMATS).default('free'),
});
export type ChatCompletionRequest = z.infer<typeof chatCompletionRequestSchema>;

const usageSchema = z.object({
  prompt_tokens: z.number().int(),
  completion_tokens: z.number().int(),
  total_tokens: z.number().int(),
});

/** How much of the answer the Voice wrote: a passage it could not write comes as drafted. */
const passagesSchema = z.object({
  passages: z.number().int(),
  passages_in_voice: z.number().int(),
});

export const chatCompletionSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      message: z.object({ role: z.literal('assistant'), content: z.string(), refusal: z.null() }),
      logprobs: z.null(),
      finish_reason: z.literal('stop'),
    }),
  ),
  usage: usageSchema,
  ownvoice: passagesSchema,
});
export type ChatCompletion = z.infer<typeof chatCompletionSchema>;

/** One of the caller's awake Voices as a model (OpenAI's model object, and the Voice's name). */
export const modelSchema = z.object({
  id: z.string(),
  object: z.literal('model'),
  created: z.number().int(),
  owned_by: z.string(),
  /** OwnVoice's own: the Voice's name as the pages show it. */
  name: z.string(),
});
export type Model = z.infer<typeof modelSchema>;

export const modelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(modelSchema),
});

/** GET /v1/models/{id}: any string, so that an id of the wrong form is a model not found (404), not a 400. */
export const modelParamsSchema = z.object({ id: z.string() });

/**
 * One event of a streamed answer (`stream: true`), sent as `data: <json>`: the role first, then a
 * chunk per passage, then `finish_reason: "stop"` with the `ownvoice` counts, then the usage when
 * `stream_options.include_usage` asks (with no choices); the stream ends with `data: [DONE]`.
 */
export const chatCompletionChunkSchema = z.object({
  id: z.string(),
  object: z.literal('chat.completion.chunk'),
  created: z.number().int(),
  model: z.string(),
  choices: z.array(
    z.object({
      index: z.number().int(),
      delta: z.object({ role: z.literal('assistant').optional(), content: z.string().optional() }),
      logprobs: z.null(),
      finish_reason: z.literal('stop').nullable(),
    }),
  ),
  usage: usageSchema.optional(),
  ownvoice: passagesSchema.optional(),
});
export type ChatCompletionChunk = z.infer<typeof chatCompletionChunkSchema>;

/** Every /v1 error (routes/v1/openai-errors.ts). */
export const openAiErrorBodySchema = z.strictObject({
  error: z.strictObject({ message: z.string(), type: z.string(), param: z.string().nullable(), code: z.string() }),
});
export type OpenAiErrorBody = z.infer<typeof openAiErrorBodySchema>;
