// /api/auth/password: "Forgot password?" and the reset link's new password. Both are rate-limited
// as sign-in is (per client and per address): asking floods nobody's inbox, and a link's code is a
// credential.
import {
  AUTH_RESET_MESSAGES,
  apiErrorBodySchema,
  forgotPasswordBodySchema,
  resetPasswordBodySchema,
} from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { originOf } from '../origin.js';

const messageResponse = z.object({ msg: z.string() });
const errors = { 400: apiErrorBodySchema, 429: apiErrorBodySchema };

export async function passwordRoutes(
  app: FastifyInstance,
  { passwordReset }: Services,
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
}
