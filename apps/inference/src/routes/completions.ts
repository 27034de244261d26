// POST /v1/completions: continues a prompt with the base model or a loaded adapter, answered as
// vLLM answers it: a `text_completion` object, or with `stream: true` `text_completion` chunks
// (each choice's `text` a delta), a last chunk carrying finish_reason, and `[DONE]`.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { whileConnected } from '../client-signal.js';
import { sendEventStream } from '../event-stream.js';
import { finishFields, prepareGeneration, startGeneration, usage, wholeGeneration } from '../generation.js';
import { errors } from '../openai-errors.js';
import type { InferenceState } from '../state.js';
import { samplingFields, samplingOptions } from './sampling.js';

const completionRequestSchema = z.object({
  // One prompt per request: a list holds exactly one (vLLM's batches of prompts are not served here).
  prompt: z.union([z.string(), z.array(z.string()).length(1, 'this server takes one prompt per request')]),
  ...samplingFields,
});

export async function completionsRoutes(app: FastifyInstance, { engine, models, metrics }: InferenceState) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .post('/v1/completions', { schema: { body: completionRequestSchema } }, async (request, reply) => {
      const body = request.body;
      const text = typeof body.prompt === 'string' ? body.prompt : (body.prompt[0] ?? '');
      if (!text) throw errors.badRequest('Either prompt or prompt_embeds must be provided and non-empty.', 'prompt');
      const { voiceId, model } = models.voiceFor(body.model ?? undefined);
      const prepared = prepareGeneration(engine, {
        voiceId,
        prompt: { kind: 'completion', text },
        maxTokens: body.max_tokens,
        options: samplingOptions(body),
      });
      const head = {
        id: `cmpl-${randomUUID().replaceAll('-', '')}`,
        object: 'text_completion' as const,
        created: Math.floor(Date.now() / 1000),
        model,
      };

      if (!body.stream) {
        const whole = await whileConnected(reply, (signal) =>
          wholeGeneration(startGeneration(engine, metrics, prepared, signal)),
        );
        if (!whole) return;
        return {
          ...head,
          choices: [{ index: 0, text: whole.text, logprobs: null, ...finishFields(whole.end), prompt_logprobs: null }],
          usage: usage(prepared, whole.end),
        };
      }

      const choice = (delta: string) => ({
        index: 0,
        text: delta,
        logprobs: null,
        finish_reason: null,
        stop_reason: null,
      });
      await sendEventStream(request, reply, async function* (signal) {
        const generation = startGeneration(engine, metrics, prepared, signal);
        for await (const delta of generation.deltas) yield { ...head, choices: [choice(delta)] };
        const end = generation.end();
        yield { ...head, choices: [{ ...choice(''), ...finishFields(end) }] };
        if (body.stream_options?.include_usage) yield { ...head, choices: [], usage: usage(prepared, end) };
      });
    });
}
