import { csrfTokenResponseSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { issueCsrfToken } from '../../plugins/csrf.js';

export async function csrfRoutes(app: FastifyInstance): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/csrf-token', { schema: { response: { 200: csrfTokenResponseSchema } } }, async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { csrfToken: issueCsrfToken(request, reply) };
    });
}
