// Convert under /api/loras: the streamed conversion (server-sent events), the whole one for
// programs (services/taken-passages.ts), and the edit pass.
import {
  apiErrorBodySchema,
  convertRequestSchema,
  convertWholeResponseSchema,
  editChunkRequestSchema,
  editChunkResponseSchema,
  MAX_CONVERT_CHARS,
} from '@ownvoice/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import { requireConvertAndCreate } from '../../policies/index.js';
import type { Services } from '../../services/index.js';
import { takenPassages, wholeText } from '../../services/taken-passages.js';
import { clientGoneSignal } from '../client-gone.js';
import { sendEventStream } from '../event-stream.js';
import { errorResponses, voiceIdParams } from './loras.schemas.js';

/**
 * The body a conversion may send: its longest text with every character a six-byte `\uXXXX`
 * escape (as Python's json module and `requests` write anything not ASCII), and room for the rest.
 * The app's 1 MiB would refuse such a text, within MAX_CONVERT_CHARS, as too large.
 */
const CONVERT_BODY_LIMIT = MAX_CONVERT_CHARS * 6 + 64 * 1024;

/** The caller and the Voice of a convert request, once the caller may convert with it. */
function converting(request: FastifyRequest & { params: { id: string }; body: { loraId?: string | undefined } }) {
  const caller = authOf(request);
  requireConvertAndCreate(caller.user);
  const { id } = request.params;
  if (request.body.loraId !== undefined && request.body.loraId !== id) {
    throw errors.validation('loraId must be the Voice in the path.');
  }
  return { caller, user: caller.user, id };
}

export async function convertRoutes(app: FastifyInstance, { conversion }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Convert and its edit pass take API keys with the 'convert' scope (plugins/authenticate.ts).
  const auth = { onRequest: app.requireUser, config: { apiKey: 'convert' as const } };
  const converts = { ...auth, bodyLimit: CONVERT_BODY_LIMIT };

  r.post(
    '/loras/:id/convert-stream',
    { schema: { params: voiceIdParams, body: convertRequestSchema }, ...converts },
    async (request, reply) => {
      const { caller, user, id } = converting(request);
      // Every refusal is a JSON error before the first event.
      const release = conversion.gate.enter(user.id);
      try {
        const prepared = await conversion.prepare(caller, id, request.body.text, request.body.variation);
        await sendEventStream(
          request,
          reply,
          (signal) => prepared.events(signal),
          'The conversion stopped unexpectedly. Please try again.',
          { stallMs: conversion.gate.limits.stallMs },
        );
      } finally {
        release();
      }
    },
  );

  r.post(
    '/loras/:id/convert',
    {
      schema: {
        params: voiceIdParams,
        body: convertRequestSchema,
        response: { 200: convertWholeResponseSchema, ...errorResponses, 503: apiErrorBodySchema },
      },
      ...converts,
    },
    async (request, reply) => {
      const { caller, user, id } = converting(request);
      const signal = clientGoneSignal(reply);
      const release = conversion.gate.enter(user.id);
      try {
        const prepared = await conversion.prepare(caller, id, request.body.text, request.body.variation);
        return await wholeText(takenPassages(prepared.events(signal)));
      } finally {
        release();
      }
    },
  );

  r.post(
    '/loras/edit-chunk',
    {
      schema: {
        body: editChunkRequestSchema,
        response: { 200: editChunkResponseSchema, ...errorResponses, 503: apiErrorBodySchema },
      },
      ...auth,
    },
    async (request) => {
      const caller = authOf(request);
      requireConvertAndCreate(caller.user);
      const release = conversion.gate.enter(caller.user.id, 'edit');
      try {
        return {
          editedChunk: await conversion.editChunk(caller, request.body.originalChunk, request.body.rephrasedChunk),
        };
      } finally {
        release();
      }
    },
  );
}
