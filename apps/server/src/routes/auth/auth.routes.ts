// /api/auth: thin handlers over AuthService and UsersService.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import {
  loginSchema,
  logoutSchema,
  meSchema,
  mfaDisableSchema,
  mfaSetupSchema,
  mfaVerifySchema,
  onboardingSchema,
  registerSchema,
} from './auth.schemas.js';

const sessionMeta = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

export async function authRoutes(app: FastifyInstance, { auth, users, mfa }: Services): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/auth/register', { schema: registerSchema, preHandler: app.authRateLimit }, async (request, reply) => {
    const result = await auth.register(request.body, sessionMeta(request));
    return reply.status(201).send(result);
  });

  r.post('/auth/login', { schema: loginSchema, preHandler: app.authRateLimit }, async (request) =>
    auth.login(request.body, sessionMeta(request)),
  );

  r.get('/auth/me', { schema: meSchema, preHandler: app.requireUser }, async (request) => ({
    user: await users.view(authOf(request).user),
  }));

  r.post('/auth/logout', { schema: logoutSchema, preHandler: app.requireUser }, async (request) => {
    await auth.logout(authOf(request).session.id);
    return { ok: true as const };
  });

  r.patch('/auth/onboarding', { schema: onboardingSchema, preHandler: app.requireUser }, async (request) => ({
    user: await users.advanceOnboarding(authOf(request).user, request.body.step),
  }));

  r.post('/auth/mfa/setup', { schema: mfaSetupSchema, preHandler: app.requireUser }, async (request) =>
    mfa.setup(authOf(request).user),
  );

  r.post('/auth/mfa/verify', { schema: mfaVerifySchema, preHandler: app.requireUser }, async (request) =>
    mfa.verify(authOf(request).user, request.body.secret, request.body.token),
  );

  // Rate-limited like login: a code is a credential.
  r.post(
    '/auth/mfa/disable',
    { schema: mfaDisableSchema, preHandler: [app.requireUser, app.authRateLimit] },
    async (request) => {
      await mfa.disable(authOf(request).user, request.body.mfaToken);
      return { ok: true as const };
    },
  );
}
