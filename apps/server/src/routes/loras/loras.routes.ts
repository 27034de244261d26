// /api/loras: thin handlers over VoicesService; ownership rules live in policies/.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { deleteSchema, forkSchema, getSchema, listSchema, patchSchema } from './loras.schemas.js';

export async function lorasRoutes(app: FastifyInstance, { voices }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { preHandler: app.requireUser };

  r.get('/loras', { schema: listSchema, ...auth }, async (request) => voices.listOwn(authOf(request).user));

  r.get('/loras/public', { schema: listSchema, ...auth }, async () => voices.listPublic());

  r.get('/loras/:id', { schema: getSchema, ...auth }, async (request) =>
    voices.get(authOf(request).user, request.params.id),
  );

  r.patch('/loras/:id', { schema: patchSchema, ...auth }, async (request) =>
    voices.update(authOf(request).user, request.params.id, request.body),
  );

  r.delete('/loras/:id', { schema: deleteSchema, ...auth }, async (request) => {
    await voices.delete(authOf(request).user, request.params.id);
    return { ok: true as const };
  });

  r.post('/loras/:id/fork', { schema: forkSchema, ...auth }, async (request, reply) =>
    reply.status(201).send(await voices.fork(authOf(request).user, request.params.id)),
  );
}
