// GET /health (200 with an empty body while the server runs), the one route open without the
// bearer key, and GET /metrics (the generation counts in Prometheus text), which needs it.
import type { FastifyInstance } from 'fastify';
import type { InferenceState } from '../state.js';

export async function healthRoutes(app: FastifyInstance, { metrics }: InferenceState) {
  app.get('/health', async (_request, reply) => reply.status(200).send());
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.prometheus()),
  );
}
