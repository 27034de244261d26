// GET /api/health: whether the service and its database answer (services/health.service.ts).
import { apiErrorBodySchema, healthResponseSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { HealthService } from '../../services/health.service.js';

export async function healthRoutes(app: FastifyInstance, health: HealthService): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { response: { 200: healthResponseSchema, 503: apiErrorBodySchema } } }, () =>
      health.check(),
    );
}
