// /api/auth: thin handlers over AuthService and UsersService.
import { OWN_ACTIVITY_LIMIT } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { authOf, selfOf, sessionMeta, sessionOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import {
  activitiesSchema,
  deleteAccountSchema,
  loginSchema,
  logoutSchema,
  meSchema,
  mfaDisableSchema,
  mfaSetupSchema,
  mfaVerifySchema,
  onboardingSchema,
  registerSchema,
} from './auth.schemas.js';

export async function authRoutes(
  app: FastifyInstance,
  { auth, users, mfa, account, activity }: Services,
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post('/auth/register', { schema: registerSchema, preValidation: app.authRateLimit }, async (request, reply) => {
    const result = await auth.register(request.body, sessionMeta(request, reply));
    return reply.status(201).send(result);
  });

  r.post('/auth/login', { schema: loginSchema, preValidation: app.authRateLimit }, async (request, reply) =>
    auth.login(request.body, sessionMeta(request, reply)),
  );

  // The web app asks on every page load: the session, the user and their usage in one round trip.
  r.get('/auth/me', { schema: meSchema, onRequest: app.requireSelf }, async (request) => {
    const { user, usage } = selfOf(request);
    return { user: await users.view(user, usage) };
  });

  r.get('/auth/activities', { schema: activitiesSchema, onRequest: app.requireUser }, async (request) => ({
    data: { activities: await activity.recentSecurity(authOf(request).user.id, OWN_ACTIVITY_LIMIT) },
  }));

  r.post('/auth/logout', { schema: logoutSchema, onRequest: app.requireUser }, async (request) => {
    const { session } = authOf(request);
    if (session) await auth.logout(session.id);
    return { ok: true as const };
  });

  r.patch('/auth/onboarding', { schema: onboardingSchema, onRequest: app.requireUser }, async (request) => ({
    user: await users.advanceOnboarding(authOf(request).user, request.body.step),
  }));

  r.post('/auth/mfa/setup', { schema: mfaSetupSchema, onRequest: app.requireUser }, async (request) =>
    mfa.setup(authOf(request).user),
  );

  r.post('/auth/mfa/verify', { schema: mfaVerifySchema, onRequest: app.requireUser }, async (request) =>
    mfa.verify(sessionOf(request), request.body.secret, request.body.token),
  );

  // Rate-limited like login: a code is a credential.
  r.post(
    '/auth/mfa/disable',
    { schema: mfaDisableSchema, onRequest: app.requireUser, preValidation: app.authRateLimit },
    async (request) => {
      await mfa.disable(sessionOf(request), request.body.mfaToken);
      return { ok: true as const };
    },
  );

  // Final: the password again (and a code with two-factor on); rate-limited like login.
  r.delete(
    '/auth/account',
    { schema: deleteAccountSchema, onRequest: app.requireUser, preValidation: app.authRateLimit },
    async (request) => {
      await account.delete(sessionOf(request), request.body);
      return { ok: true as const };
    },
  );
}
