// /api/auth/email and /api/auth/notices: thin handlers over EmailAddressService. Opening a link is
// public (it came to the address) and rate-limited as sign-in is, as are the signed-in requests
// that mail a link (a code is a credential, and nobody floods an inbox). Like every state-changing
// route they need the CSRF token (plugins/csrf.ts): the web page that a link opens posts its token.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../../errors.js';
import { authOf, bearerToken, sessionOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { changeEmailSchema, noticeSettingsSchema, resendEmailSchema, verifyEmailSchema } from './auth.schemas.js';

export async function emailRoutes(app: FastifyInstance, { emailAddress }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/auth/email/verify',
    { schema: verifyEmailSchema, onRequest: signedInIfValid(app), preValidation: app.authRateLimit },
    async (request) => emailAddress.verify(request.body.token, request.auth),
  );

  r.post(
    '/auth/email/resend',
    { schema: resendEmailSchema, onRequest: app.requireUser, preValidation: app.authRateLimit },
    async (request, reply) => reply.status(202).send(await emailAddress.resend(authOf(request).user)),
  );

  r.post(
    '/auth/email/change',
    { schema: changeEmailSchema, onRequest: app.requireUser, preValidation: app.authRateLimit },
    async (request, reply) =>
      reply.status(202).send(await emailAddress.requestChange(sessionOf(request), request.body)),
  );

  r.put('/auth/notices', { schema: noticeSettingsSchema, onRequest: app.requireUser }, async (request) => ({
    user: await emailAddress.setMutedNotices(authOf(request).user, request.body.muted),
  }));
}

/**
 * Reads the session when a bearer token is sent; a link opened in a browser whose session ended
 * meanwhile still works, as if signed out (the link is the credential here, not the session).
 */
const signedInIfValid = (app: FastifyInstance) => async (request: FastifyRequest) => {
  if (!bearerToken(request)) return;
  try {
    await app.requireUser(request);
  } catch (error) {
    if (!(error instanceof AppError && error.statusCode === 401)) throw error;
    request.auth = null;
  }
};
