// /v1: OpenAI's protocol for writing in a Voice, so any tool that takes an OpenAI base URL and key
// writes in a person's Voice. GET /v1/models lists the key owner's awake Voices, GET
// /v1/models/{id} answers one; POST /v1/chat/completions (whole or streamed) writes with the Voice
// named as `model` (services/voice-chat.service.ts). A model that is not one of the caller's Voices
// is 404 `model_not_found` on each. They take an API key with the `create` scope and nothing
// else: no browser session reaches them, and a page on any origin may call them with a key
// (plugins/cors.ts). Errors come in OpenAI's shape (openai-errors.ts).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Clock } from '../../clock.js';
import { errors } from '../../errors.js';
import { authOf, sentApiKey } from '../../plugins/authenticate.js';
import { registerKeyCors } from '../../plugins/cors.js';
import { registerErrorHandling } from '../../plugins/error-handler.js';
import { requireConvertAndCreate } from '../../policies/index.js';
import type { Services } from '../../services/index.js';
import { wholeText } from '../../services/taken-passages.js';
import type { VoiceModel } from '../../services/voice-chat.service.js';
import { clientGoneSignal } from '../client-gone.js';
import { sendEventStream } from '../event-stream.js';
import { openAiAnswer, sendOpenAiError } from './openai-errors.js';
import {
  type ChatCompletion,
  type ChatCompletionChunk,
  chatCompletionRequestSchema,
  chatCompletionSchema,
  type Model,
  modelListSchema,
  modelParamsSchema,
  modelSchema,
} from './v1.schemas.js';

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

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
        const head = { id: `chatcmpl-${randomUUID()}`, created: seconds(clock.now()), model: body.model };
        const usage = async (content: string) => {
          const prompt = await prepared.countTokens(prepared.promptText);
          const completion = await prepared.countTokens(content);
          return { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion };
        };
        if (!body.stream) {
          // Answered whole once written: a piece in the Voice is as good as sent.
          const {
            text: content,
            passages,
            passagesInVoice,
          } = await wholeText(
            prepared.text(clientGoneSignal(reply)),
            (piece) => piece.inVoice && prepared.rewriteSent(),
          );
          const completion: ChatCompletion = {
            ...head,
            object: 'chat.completion',
            choices: [
              {
                index: 0,
                message: { role: 'assistant', content, refusal: null },
                logprobs: null,
                finish_reason: 'stop',
              },
            ],
            usage: await usage(content),
            ownvoice: { passages, passages_in_voice: passagesInVoice },
          };
          return completion;
        }
        const chunk = (
          delta: ChatCompletionChunk['choices'][number]['delta'],
          finish: 'stop' | null,
          extra: Pick<ChatCompletionChunk, 'ownvoice'> = {},
        ): ChatCompletionChunk => ({
          ...head,
          object: 'chat.completion.chunk',
          choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
          ...extra,
        });
        await sendEventStream(
          request,
          reply,
          async function* (signal) {
            // Started before anything is sent, so that a client gone at once still settles the
            // charge (an unstarted generator's cleanup never runs).
            const pieces = prepared.text(signal);
            const first = pieces.next();
            try {
              // The role at once, as OpenAI does: the client knows the answer has begun.
              yield chunk({ role: 'assistant', content: '' }, null);
              let content = '';
              for (let step = await first; ; step = await pieces.next()) {
                if (step.done) {
                  const { passages, passagesInVoice } = step.value;
                  yield chunk({}, 'stop', { ownvoice: { passages, passages_in_voice: passagesInVoice } });
                  break;
                }
                content += step.value.text;
                // The stream pulls again only once this chunk was written out.
                yield chunk({ content: step.value.text }, null);
                if (step.value.inVoice) prepared.rewriteSent();
              }
              if (body.stream_options?.include_usage) {
                yield { ...chunk({}, null), choices: [], usage: await usage(content) };
              }
            } finally {
              // A client gone mid-answer: the rewrite stops and its charge is settled.
              await first.catch(() => undefined);
              await pieces.return(undefined as never);
            }
          },
          'The Voice stopped writing unexpectedly. Please try again.',
          {
            stallMs: conversion.gate.limits.stallMs,
            errorEvent: ({ code, error }) => openAiAnswer({ status: 500, body: { msg: error, code } }).body,
            closing: '[DONE]',
          },
        );
        return reply;
      } finally {
        release();
      }
    },
  );
}
