// vLLM's runtime LoRA API: POST /v1/load_lora_adapter {lora_name, lora_path} and
// POST /v1/unload_lora_adapter {lora_name}. Success is a 200 with vLLM's plain-text sentence;
// refusals are vLLM's: a name already loaded (without load_inplace) is a 400, a path with no
// adapter file a 404, an unknown name to unload a 404. lora_path here is a GGUF LoRA adapter for
// the base model; a file that is not one is a 400 naming the problem. Unloading an adapter stops
// the generations on it: a plain request answers a 404 for its model, a stream ends with that
// error as its last event.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { InferenceState } from '../state.js';

const name = z.string().max(200);

const loadSchema = z.object({
  lora_name: name,
  lora_path: z.string().max(4096),
  /** vLLM's: replace the weights of an adapter already loaded under this name. */
  load_inplace: z.boolean().nullish(),
});

const unloadSchema = z.object({ lora_name: name });

export async function loraAdapterRoutes(app: FastifyInstance, { models }: InferenceState) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post('/v1/load_lora_adapter', { schema: { body: loadSchema } }, async (request, reply) => {
    const { lora_name, lora_path, load_inplace } = request.body;
    await models.load(lora_name, lora_path, load_inplace ?? false);
    return reply.type('text/plain; charset=utf-8').send(`Success: LoRA adapter '${lora_name}' added successfully.`);
  });
  r.post('/v1/unload_lora_adapter', { schema: { body: unloadSchema } }, async (request, reply) => {
    const { lora_name } = request.body;
    await models.unload(lora_name);
    return reply.type('text/plain; charset=utf-8').send(`Success: LoRA adapter '${lora_name}' removed successfully.`);
  });
}
