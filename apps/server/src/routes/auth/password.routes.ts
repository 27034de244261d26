// /api/auth/password: "Forgot password?", the reset link's new password, and a signed-in change of
// password (EmailAddressService.changePassword). All are rate-limited as sign-in is (per client and
// per account): asking floods nobody's inbox, and a link, a password and a code are credentials.
import {
  AUTH_RESET_MESSAGES,
  apiErrorBodySchema,
  forgotPasswordBodySchema,
  resetPasswordBodySchema,
} from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { sessionOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { originOf } from '../origin.js';
import { changePasswordSchema } from './auth.schemas.js';

const messageResponse = z.object({ msg: z.string() });
const errors = { 400: apiErrorBodySchema, 429: apiErrorBodySchema };

export async function passwordRoutes(
  app: FastifyInstance,
  { passwordReset, emailAddress }: Services,
  options: { publicUrl: string | undefined },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/auth/password/forgot',
    {
      schema: { body: forgotPasswordBodySchema, response: { 202: messageResponse, ...errors } },
      preValidation: app.authRateLimit,
    },
    async (request, reply) => {
      await passwordReset.ask(request.body.email, options.publicUrl ?? originOf(request));
      return reply.status(202).send({ msg: AUTH_RESET_MESSAGES.forgotSent });
    },
  );

  r.post(
    '/auth/password/reset',
    {
      schema: { body: resetPasswordBodySchema, response: { 200: messageResponse, ...errors } },
      preValidation: app.authRateLimit,
    },
    async (request) => {
      await passwordReset.reset(request.body);
      return { msg: AUTH_RESET_MESSAGES.resetDone };
    },
  );

  // The current password again (and a code with two-factor on): this session stays, the others end.
  r.post(
    '/auth/password/change',
    { schema: changePasswordSchema, onRequest: app.requireUser, preValidation: app.authRateLimit },
    async (request) => {
      await emailAddress.changePassword(sessionOf(request), request.body);
      return { ok: true as const };
    },
  );
}
