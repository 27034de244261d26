// /api/auth/api-keys: a person's keys for their own tools. Sessions only: a key can neither make
// nor list nor revoke keys (no route here names an `apiKey` scope).
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { createApiKeySchema, listApiKeysSchema, revokeApiKeySchema } from './api-keys.schemas.js';

export async function apiKeysRoutes(app: FastifyInstance, { apiKeys }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const signedIn = { onRequest: app.requireUser };

  r.get('/auth/api-keys', { schema: listApiKeysSchema, ...signedIn }, async (request) => ({
    keys: await apiKeys.list(authOf(request).user),
  }));

  r.post('/auth/api-keys', { schema: createApiKeySchema, ...signedIn }, async (request, reply) => {
    reply.code(201);
    return apiKeys.create(authOf(request).user, request.body);
  });

  r.delete('/auth/api-keys/:id', { schema: revokeApiKeySchema, ...signedIn }, async (request) => {
    await apiKeys.revoke(authOf(request).user, request.params.id);
    return { ok: true as const };
  });
}
