// Builds the inference server's HTTP application over a started engine, without listening, so
// tests can run it on any port. The routes are vLLM's OpenAI-compatible ones (models,
// completions, chat completions, runtime LoRA loading, tokenize) plus /health and /metrics; every error
// leaves in vLLM's ErrorResponse body (openai-errors.ts).
import type { VoiceEngine } from '@ownvoice/engine';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { registerBearerAuth } from './bearer-auth.js';
import { GenerationMetrics } from './metrics.js';
import { ServedModels } from './models.js';
import { OpenAIError, toOpenAIError } from './openai-errors.js';
import { chatCompletionsRoutes } from './routes/chat-completions.js';
import { completionsRoutes } from './routes/completions.js';
import { healthRoutes } from './routes/health.js';
import { loraAdapterRoutes } from './routes/lora-adapters.js';
import { modelsRoutes } from './routes/models.js';
import { tokenizeRoutes } from './routes/tokenize.js';
import type { InferenceState } from './state.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The engine and what it serves, for main.ts and tests. */
    inference: InferenceState;
    /** Every route with its schemas, for the authorization matrix and the fuzz test. */
    routeList: readonly { method: string; url: string; schema?: unknown }[];
  }
}

/**
 * Largest request body taken. A prompt must fit the model's context (a few thousand tokens, tens
 * of kilobytes of text), so a megabyte is ample, and a larger body is refused with a 413 before
 * it is read.
 */
export const BODY_LIMIT_BYTES = 1024 * 1024;

export interface InferenceAppOptions {
  engine: VoiceEngine;
  /** The base model: its served name and its file. */
  baseModel: { name: string; path: string };
  /** The bearer key /v1 requests must carry; undefined takes every request. */
  apiKey?: string | undefined;
  logger?: FastifyServerOptions['logger'];
}

export async function buildApp({ engine, baseModel, apiKey, logger = false }: InferenceAppOptions) {
  const app: FastifyInstance = Fastify({ logger, bodyLimit: BODY_LIMIT_BYTES });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const state: InferenceState = {
    engine,
    models: new ServedModels(engine, baseModel),
    metrics: new GenerationMetrics(baseModel.name),
  };
  app.decorate('inference', state);
  const routes: { method: string; url: string; schema?: unknown }[] = [];
  app.addHook('onRoute', (route) => {
    for (const method of [route.method].flat()) routes.push({ method, url: route.url, schema: route.schema });
  });
  app.decorate('routeList', routes);

  app.setErrorHandler((error, request, reply) => {
    const failure = toOpenAIError(error, (err) => request.log.error({ err }, 'request failed'));
    return reply.status(failure.status).send(failure.body);
  });
  app.setNotFoundHandler((_request, reply) => {
    const notFound = new OpenAIError(404, 'Not Found', 'Not Found');
    return reply.status(404).send(notFound.body);
  });
  if (apiKey) registerBearerAuth(app, apiKey);

  await app.register(modelsRoutes, state);
  await app.register(completionsRoutes, state);
  await app.register(chatCompletionsRoutes, state);
  await app.register(loraAdapterRoutes, state);
  await app.register(tokenizeRoutes, state);
  await app.register(healthRoutes, state);
  return app;
}
