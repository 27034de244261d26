// /api/auth/api-keys: a person's keys for their own tools. Sessions only: a key can neither make
// nor list nor revoke keys (no route here names an `apiKey` scope). Making one asks for the
// password again, so it is rate-limited as the other password checks are.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, sessionOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { createApiKeySchema, listApiKeysSchema, revokeApiKeySchema } from './api-keys.schemas.js';

export async function apiKeysRoutes(app: FastifyInstance, { apiKeys }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: app.requireUser };

  r.get('/auth/api-keys', { schema: listApiKeysSchema, ...signedIn }, async (request) => ({
    keys: await apiKeys.list(authOf(request).user),
  }));

  r.post(
    '/auth/api-keys',
    { schema: createApiKeySchema, ...signedIn, preValidation: app.authRateLimit },
    async (request, reply) => {
      const created = await apiKeys.create(sessionOf(request), request.body);
      reply.code(201);
      return created;
    },
  );

  r.delete('/auth/api-keys/:id', { schema: revokeApiKeySchema, ...signedIn }, async (request) => {
    await apiKeys.revoke(authOf(request).user, request.params.id);
    return { ok: true as const };
  });
}
