// POST /tokenize, as vLLM serves it (outside /v1): the tokens of a prompt in a served model's
// vocabulary, {count, max_model_len, tokens}, in its completion form ({prompt}) or its chat form
// ({messages}: the prompt the chat template makes of them, up to where the answer begins). The
// API server sizes its rewrites' token budgets with it, and fits long chats into the context.
// Adapters share the base model's vocabulary, so any served name (or none) tokenizes the same.
// add_special_tokens (vLLM's default true for a prompt) adds the beginning-of-text token where
// the model's vocabulary has one.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InferenceState } from '../state.js';
import { engineMessages, messagesSchema } from './chat-completions.js';

const model = z.string().max(200).nullish();
const tokenizeSchema = z.union([
  z.object({ model, prompt: z.string().max(1024 * 1024), add_special_tokens: z.boolean().nullish() }),
  z.object({ model, messages: messagesSchema, add_generation_prompt: z.boolean().nullish() }),
]);

export async function tokenizeRoutes(app: FastifyInstance, { engine, models }: InferenceState) {
  app.withTypeProvider<ZodTypeProvider>().post('/tokenize', { schema: { body: tokenizeSchema } }, async (request) => {
    const body = request.body;
    models.voiceFor(body.model ?? undefined);
    const { runtime } = engine;
    const bos = runtime.bosToken;
    const tokens =
      'messages' in body
        ? runtime.chatPromptTokens(engineMessages(body.messages))
        : [...(body.add_special_tokens !== false && bos !== undefined ? [bos] : []), ...runtime.tokenize(body.prompt)];
    return { count: tokens.length, max_model_len: runtime.contextSize, tokens };
  });
}
