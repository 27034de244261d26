// Rate limits for the sign-in and sign-up routes: one budget per client IP and one per
// account (e-mail), both from configuration. Loopback is not exempt: a proxy on the same host
// would otherwise exempt everyone.
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errors } from '../errors.js';

declare module 'fastify' {
  interface FastifyInstance {
    authRateLimit: (request: FastifyRequest) => Promise<void>;
  }
}

export async function registerAuthRateLimit(app: FastifyInstance, limits: Config['authRateLimit']): Promise<void> {
  await app.register(rateLimit, { global: false });
  const perIp = app.createRateLimit({
    max: limits.perIp,
    timeWindow: limits.windowMs,
    keyGenerator: (request) => `ip:${request.ip}`,
  });
  const perAccount = app.createRateLimit({
    max: limits.perAccount,
    timeWindow: limits.windowMs,
    keyGenerator: (request) => `account:${accountKey(request)}`,
  });
  // Runs as a preHandler, after the body has been validated and the e-mail normalised.
  app.decorate('authRateLimit', async (request: FastifyRequest) => {
    for (const limiter of [perIp, perAccount]) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) throw errors.rateLimited(result.ttlInSeconds);
    }
  });
}

/** The account an attempt is against: the e-mail of a sign-in, or the signed-in user (a code check). */
function accountKey(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  if (typeof body?.email === 'string') return body.email;
  return request.auth ? `user:${request.auth.user.id}` : `ip:${request.ip}`;
}
