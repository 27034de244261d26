// Unauthenticated facts the sign-up page needs: how full the beta is.
import { publicStatsSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';

export async function publicRoutes(app: FastifyInstance, { stats }: Services): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/public/stats', { schema: { response: { 200: publicStatsSchema } } }, async () => stats.publicStats());
}
