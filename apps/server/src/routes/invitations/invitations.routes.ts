// /api/invitations/:token: the page an admin invitation links to reads who is invited, then
// accepts it by signing up (anyone with the link) or as the signed-in account with that e-mail.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bearerToken, sessionMeta } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { acceptSchema, invitationSchema } from './invitations.schemas.js';

export async function invitationsRoutes(app: FastifyInstance, { invitations }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/invitations/:token', { schema: invitationSchema }, async (request) => invitations.info(request.params.token));

  r.post(
    '/invitations/:token/accept',
    // A sign-up like any other: the same rate limits.
    { schema: acceptSchema, onRequest: signedInIfAny(app), preValidation: app.authRateLimit },
    async (request, reply) => {
      const body: { username?: string; password?: string } = request.body;
      const result = await invitations.accept(
        request.params.token,
        body,
        request.auth?.user ?? null,
        sessionMeta(request, reply),
      );
      if (result.token !== undefined) {
        reply.code(201);
        return { token: result.token, user: result.user };
      }
      return { user: result.user };
    },
  );
}

/** Reads the session when a bearer token is sent (and refuses a bad one), else goes on signed out. */
const signedInIfAny = (app: FastifyInstance) => async (request: FastifyRequest) => {
  if (bearerToken(request)) await app.requireUser(request);
};
