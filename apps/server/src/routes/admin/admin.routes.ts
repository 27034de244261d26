// /api/admin: the admin console's reads. Every route answers only admins with two-factor on
// (app.requireAdmin, policies/adminPolicy), checked before anything else about the request.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Services } from '../../services/index.js';
import { overviewSchema, usersListSchema } from './admin.schemas.js';

export async function adminRoutes(app: FastifyInstance, { admin }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const guard = { onRequest: app.requireAdmin };

  r.get('/admin/overview', { schema: overviewSchema, ...guard }, async () => admin.overview());

  r.get('/admin/users', { schema: usersListSchema, ...guard }, async (request) => ({
    data: await admin.listUsers(request.query),
  }));
}
