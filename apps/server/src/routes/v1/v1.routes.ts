// /v1: OpenAI's protocol for writing in a Voice, so any tool that takes an OpenAI base URL and key
// writes in a person's Voice. GET /v1/models lists the key owner's awake Voices, GET
// /v1/models/{id} answers one; POST /v1/chat/completions (whole or streamed) writes with the Voice
// named as `model` (services/voice-chat.service.ts). A model that is not one of the caller's Voices
// is 404 `model_not_found` on each. They take an API key with the `create` scope and nothing
// else: no browser session reaches them, and a page on any origin may call them with a key
// (plugins/cors.ts). Errors come in OpenAI's shape (openai-errors.ts).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Clock } from '../../clock.js';
import { errors } from '../../errors.js';
import { authOf, sentApiKey } from '../../plugins/authenticate.js';
import { registerKeyCors } from '../../plugins/cors.js';
import { registerErrorHandling } from '../../plugins/error-handler.js';
import { requireConvertAndCreate } from '../../policies/index.js';
import type { Services } from '../../services/index.js';
import type { VoiceModel } from '../../services/voice-chat.service.js';
import { completionHead, seconds, streamCompletion, wholeCompletion } from './chat-completion.js';
import { sendOpenAiError } from './openai-errors.js';
import {
  chatCompletionRequestSchema,
  chatCompletionSchema,
  type Model,
  modelListSchema,
  modelParamsSchema,
  modelSchema,
} from './v1.schemas.js';

export async function v1Routes(app: FastifyInstance, { voiceChat, conversion }: Services, { clock }: { clock: Clock }) {
  registerErrorHandling(app, sendOpenAiError);
  // First: every answer below, a refusal included, is readable from a page on any origin.
  registerKeyCors(app);
  app.setNotFoundHandler((request, reply) =>
    sendOpenAiError(reply, {
      status: 404,
      body: {
        msg: `No route ${request.method} ${request.url.split('?')[0]}: this API has GET /v1/models, GET /v1/models/{id} and POST /v1/chat/completions.`,
        code: 'ROUTE_NOT_FOUND',
      },
    }),
  );
  // Sessions belong to the pages; here a person's tools speak, each with its own key. A browser's
  // preflight carries no key: plugins/cors.ts answers it.
  app.addHook('onRequest', async (request) => {
    if (request.method !== 'OPTIONS' && !sentApiKey(request)) {
      throw errors.unauthenticated(
        'Send an OwnVoice API key (ovk_…) as the bearer token: create one with the create scope on your account page.',
      );
    }
  });
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.requireUser, config: { apiKey: 'create' as const } };

  /** A Voice as OpenAI's model object. */
  const card = (m: VoiceModel, owner: string): Model => ({
    id: m.id,
    object: 'model',
    created: seconds(m.createdAt),
    owned_by: owner,
    name: m.name,
  });

  r.get('/models', { schema: { response: { 200: modelListSchema } }, ...auth }, async (request) => {
    const caller = authOf(request);
    const models = await voiceChat.models(caller);
    return { object: 'list' as const, data: models.map((m) => card(m, caller.user.username)) };
  });

  r.get(
    '/models/:id',
    { schema: { params: modelParamsSchema, response: { 200: modelSchema } }, ...auth },
    async (request) => {
      const caller = authOf(request);
      return card(await voiceChat.model(caller, request.params.id), caller.user.username);
    },
  );

  r.post(
    '/chat/completions',
    {
      schema: { body: chatCompletionRequestSchema, response: { 200: chatCompletionSchema } },
      ...auth,
      // No CSRF token: only API keys get in, and a browser never sends one on its own.
      config: { ...auth.config, csrf: false },
    },
    async (request, reply) => {
      const caller = authOf(request);
      requireConvertAndCreate(caller.user);
      const body = request.body;
      const release = conversion.gate.enter(caller.user.id);
      try {
        const prepared = await voiceChat.prepare(caller, {
          voiceId: body.model,
          messages: body.messages,
          format: body.format,
        });
        const head = completionHead(body.model, clock.now());
        if (!body.stream) return await wholeCompletion(prepared, head, reply);
        await streamCompletion(request, reply, prepared, head, {
          includeUsage: body.stream_options?.include_usage ?? false,
          stallMs: conversion.gate.limits.stallMs,
        });
        return reply;
      } finally {
        release();
      }
    },
  );
}
