// Route schemas of /api/loras (voices-convert-create.md §7).
import {
  apiErrorBodySchema,
  characterCountSchema,
  ID_PATTERN,
  okResponseSchema,
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

/** Multipart (name, text, files): read by voice-upload.ts as it streams, not by a body schema. */
export const createSchema = { response: { 201: voiceSchema, ...uploadErrors, 503: apiErrorBodySchema } };

export const countCharactersSchema = { response: { 200: characterCountSchema, ...uploadErrors } };

export const activationSchema = {
  params: voiceIdParams,
  response: { 200: voiceSchema, ...errorResponses, 503: apiErrorBodySchema },
};
