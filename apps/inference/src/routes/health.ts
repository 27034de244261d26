// GET /health (200 with an empty body while the server runs), the one route open without the
// bearer key, and GET /metrics (the generation counts in Prometheus text), which needs it.
import type { FastifyInstance } from 'fastify';
import type { InferenceState } from '../state.js';

export async function healthRoutes(app: FastifyInstance, { metrics }: InferenceState) {
  // Probed every few seconds (the API server watches its endpoints, load balancers too): its
  // requests are not logged at info, where they would bury everything else; a failure still is.
  app.get('/health', { logLevel: 'warn' }, async (_request, reply) => reply.status(200).send());
  app.get('/metrics', async (_request, reply) =>
    reply.type('text/plain; version=0.0.4; charset=utf-8').send(metrics.prometheus()),
  );
}
