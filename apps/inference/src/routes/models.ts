// GET /v1/models: the base model and every loaded adapter, as vLLM lists them: model cards owned
// by "vllm", the base with its path as `root` and its context as `max_model_len`, each adapter
// with its lora_path as `root` and the base model as `parent`.
import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ServedModel } from '../models.js';
import type { InferenceState } from '../state.js';

/** vLLM's ModelPermission, which its model cards carry one of. */
const permission = (created: number) => ({
  id: `modelperm-${randomUUID().replaceAll('-', '')}`,
  object: 'model_permission',
  created,
  allow_create_engine: false,
  allow_sampling: true,
  allow_logprobs: true,
  allow_search_indices: false,
  allow_view: true,
  allow_fine_tuning: false,
  organization: '*',
  group: null,
  is_blocking: false,
});

const card = (model: ServedModel, maxModelLen: number | null) => ({
  id: model.id,
  object: 'model',
  created: model.created,
  owned_by: 'vllm',
  root: model.root,
  parent: model.parent,
  max_model_len: maxModelLen,
  permission: [permission(model.created)],
});

export async function modelsRoutes(app: FastifyInstance, { engine, models }: InferenceState) {
  app.get('/v1/models', async () => ({
    object: 'list',
    // vLLM gives the context only on the base model's card.
    data: models.list().map((m) => card(m, m.parent === null ? engine.runtime.contextSize : null)),
  }));
}
