// GET /health (200 with an empty body while the server runs) and GET /metrics (the generation
// counts in Prometheus text), both outside /v1 and so open without the bearer key, as in vLLM.
import type { FastifyInstance } from 'fastify';
import type { InferenceState } from '../state.js';

export async function healthRoutes(app: FastifyInstance, { metrics }: InferenceState) {
  app.get('/health', async (_request, reply) => reply.status(200).send());
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.prometheus()),
  );
}
