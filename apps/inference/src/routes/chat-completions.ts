// POST /v1/chat/completions: answers a conversation with the model's chat template, with the base
// model or a loaded adapter, as vLLM answers it: a `chat.completion` object, or with
// `stream: true` `chat.completion.chunk`s whose first delta carries role `assistant`, then content
// deltas, a last chunk carrying finish_reason, and `[DONE]`.
import { randomUUID } from 'node:crypto';
import type { ChatMessage } from '@ownvoice/engine';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { whileConnected } from '../client-signal.js';
import { sendEventStream } from '../event-stream.js';
import { finishFields, prepareGeneration, startGeneration, usage, wholeGeneration } from '../generation.js';
import { errors } from '../openai-errors.js';
import type { InferenceState } from '../state.js';
import { samplingFields, samplingOptions } from './sampling.js';

/** Text, as a string or as OpenAI's list of text parts; other parts (images, audio) are not served. */
const contentSchema = z.union([z.string(), z.array(z.object({ type: z.literal('text'), text: z.string() })), z.null()]);

/** OpenAI's chat messages (also /tokenize's chat form). */
export const messagesSchema = z
  .array(
    z.object({
      // `developer` is OpenAI's newer name for the system role.
      role: z.enum(['system', 'developer', 'user', 'assistant']),
      content: contentSchema.optional(),
    }),
  )
  .min(1)
  .max(1000);

const chatRequestSchema = z.object({
  messages: messagesSchema,
  /** OpenAI's newer name for max_tokens; it wins when both are given, as in vLLM. */
  max_completion_tokens: z.number().int().min(1, 'max_completion_tokens must be at least 1').nullish(),
  ...samplingFields,
});

/** The messages as the engine takes them; throws vLLM's 400 unless the last turn is the user's. */
export function engineMessages(messages: z.infer<typeof messagesSchema>): ChatMessage[] {
  const out = messages.map(
    (m): ChatMessage => ({
      role: m.role === 'developer' ? 'system' : m.role,
      content: typeof m.content === 'string' ? m.content : (m.content ?? []).map((part) => part.text).join(''),
    }),
  );
  // The engine answers the last user turn; a conversation must end with one.
  if (out.filter((m) => m.role !== 'system').at(-1)?.role !== 'user') {
    throw errors.badRequest('The last message that is not a system message must be a user message.', 'messages');
  }
  return out;
}

export async function chatCompletionsRoutes(app: FastifyInstance, { engine, models, metrics }: InferenceState) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/v1/chat/completions', { schema: { body: chatRequestSchema } }, async (request, reply) => {
      const body = request.body;
      const { voiceId, model } = models.voiceFor(body.model ?? undefined);
      const prepared = prepareGeneration(engine, {
        voiceId,
        prompt: { kind: 'chat', messages: engineMessages(body.messages) },
        maxTokens: body.max_completion_tokens ?? body.max_tokens,
        options: samplingOptions(body),
      });
      const id = `chatcmpl-${randomUUID().replaceAll('-', '')}`;
      const created = Math.floor(Date.now() / 1000);

      if (!body.stream) {
        const whole = await whileConnected(reply, (signal) =>
          wholeGeneration(startGeneration(engine, metrics, prepared, signal)),
        );
        if (!whole) return;
        return {
          id,
          object: 'chat.completion' as const,
          created,
          model,
          choices: [
            {
              index: 0,
              message: { role: 'assistant' as const, content: whole.text, tool_calls: [] },
              logprobs: null,
              ...finishFields(whole.end),
            },
          ],
          usage: usage(prepared, whole.end),
          prompt_logprobs: null,
        };
      }

      const head = { id, object: 'chat.completion.chunk' as const, created, model };
      const unfinished = { finish_reason: null, stop_reason: null };
      const chunk = (
        delta: { role?: 'assistant'; content: string },
        finish: ReturnType<typeof finishFields> | typeof unfinished = unfinished,
      ) => ({
        ...head,
        choices: [{ index: 0, delta, logprobs: null, ...finish }],
      });
      await sendEventStream(request, reply, async function* (signal) {
        yield chunk({ role: 'assistant', content: '' });
        const generation = startGeneration(engine, metrics, prepared, signal);
        for await (const delta of generation.deltas) yield chunk({ content: delta });
        const end = generation.end();
        yield chunk({ content: '' }, finishFields(end));
        if (body.stream_options?.include_usage) {
          yield { ...head, choices: [], usage: usage(prepared, end) };
        }
      });
    });
}
