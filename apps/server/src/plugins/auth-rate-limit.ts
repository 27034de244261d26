// Rate limits for the sign-in and sign-up routes: one budget per client IP and one per
// account (e-mail), both from configuration. Loopback is not exempt: a proxy on the same host
// would otherwise exempt everyone.
import rateLimit from '@fastify/rate-limit';
import { EMAIL_MAX, normalizeEmail } from '@ownvoice/shared';
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
  // Runs as a preValidation hook: a malformed body counts against the budget as any attempt does,
  // and is refused before any rule reads it.
  app.decorate('authRateLimit', async (request: FastifyRequest) => {
    for (const limiter of [perIp, perAccount]) {
      const result = await limiter(request);
      if (!result.isAllowed && result.isExceeded) throw errors.rateLimited(result.ttlInSeconds);
    }
  });
}

/**
 * The account an attempt is against: the e-mail of a sign-in (not yet validated, so normalised
 * here from a bounded prefix), or the signed-in user (a code check).
 */
function accountKey(request: FastifyRequest): string {
  const body = request.body as { email?: unknown } | undefined;
  if (typeof body?.email === 'string') return normalizeEmail(body.email.slice(0, EMAIL_MAX * 2));
  return request.auth ? `user:${request.auth.user.id}` : `ip:${request.ip}`;
}
