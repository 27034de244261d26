// Route schemas of /api/loras: what each route takes and what it answers.
import { countChars } from '@ownvoice/engine';
import {
  apiErrorBodySchema,
  characterCountSchema,
  ID_PATTERN,
  MAX_PASTED_CHARS,
  okResponseSchema,
  stripNul,
  trainingEventsSchema as trainingEventListSchema,
  VOICE_MESSAGES,
  voiceNameSchema,
  voiceSchema,
} from '@ownvoice/shared';
import { z } from 'zod';

export const errorResponses = {
  400: apiErrorBodySchema,
  401: apiErrorBodySchema,
  403: apiErrorBodySchema,
  404: apiErrorBodySchema,
};

export const voiceIdParams = z.object({ id: z.string().regex(ID_PATTERN, 'Voice ids are 24 hexadecimal characters') });

export const listSchema = { response: { 200: z.array(voiceSchema), ...errorResponses } };

export const getSchema = { params: voiceIdParams, response: { 200: voiceSchema, ...errorResponses } };

export const patchSchema = {
  params: voiceIdParams,
  body: z
    .object({ name: voiceNameSchema.optional(), isPublic: z.boolean().optional() })
    .strict()
    .refine((b) => b.name !== undefined || b.isPublic !== undefined, 'Send a new name or isPublic'),
  response: { 200: voiceSchema, ...errorResponses },
};

export const deleteSchema = { params: voiceIdParams, response: { 200: okResponseSchema, ...errorResponses } };

export const forkSchema = { params: voiceIdParams, response: { 201: voiceSchema, ...errorResponses } };

const uploadErrors = { ...errorResponses, 413: apiErrorBodySchema, 415: apiErrorBodySchema };

/**
 * The text fields of POST /loras, checked by voice-upload.ts once the multipart body is in (the
 * files stream to disk; training-input.ts checks what they hold). Pasted text is counted in
 * characters as a person counts them, after NUL characters are dropped.
 */
export const createVoiceFieldsSchema = z.object({
  name: voiceNameSchema,
  text: z
    .string()
    .default('')
    .transform(stripNul)
    .refine((text) => countChars(text) <= MAX_PASTED_CHARS, VOICE_MESSAGES.pastedTooLong),
});

/** Multipart (name, text, files): read by voice-upload.ts as it streams, not by a body schema. */
export const createSchema = { response: { 201: voiceSchema, ...uploadErrors, 503: apiErrorBodySchema } };

export const countCharactersSchema = { response: { 200: characterCountSchema, ...uploadErrors } };

export const activationSchema = {
  params: voiceIdParams,
  response: { 200: voiceSchema, ...errorResponses, 503: apiErrorBodySchema },
};

/** POST /loras/:id/cancel-training: the Voice, failed now; 409 when it was not training. */
export const cancelTrainingSchema = {
  params: voiceIdParams,
  response: { 200: voiceSchema, ...errorResponses, 409: apiErrorBodySchema },
};

/** GET /loras/:id/training-events: the training's events, oldest first (the owner's alone). */
export const trainingEventsSchema = {
  params: voiceIdParams,
  response: { 200: trainingEventListSchema, ...errorResponses },
};
