// Rate limits for the sign-in and sign-up routes and for code checks: one budget per client IP and
// one per account, both from configuration. The account is the signed-in user whenever there is
// one (whatever the body says), else the e-mail typed; a browser the account has signed in from
// before has a budget of its own, so nobody can spend its owner's by guessing elsewhere. Loopback
// is not exempt: a proxy on the same host would otherwise exempt everyone.
import rateLimit from '@fastify/rate-limit';
import { EMAIL_MAX, normalizeEmail } from '@ownvoice/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errors } from '../errors.js';
import type { LoginGuard } from '../services/login-guard.js';
import { hashToken } from '../services/tokens.js';
import { deviceOf } from './device-cookie.js';

declare module 'fastify' {
  interface FastifyInstance {
    authRateLimit: (request: FastifyRequest) => Promise<void>;
    /** An API key's own budget of requests a minute (its `rateLimitPerMinute`); after requireUser. */
    apiKeyRateLimit: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** The account budget an attempt is spent from (set by authRateLimit). */
    rateLimitAccount?: string;
  }
}

export async function registerAuthRateLimit(
  app: FastifyInstance,
  limits: Config['authRateLimit'],
  guard: Pick<LoginGuard, 'isKnownFor'>,
): Promise<void> {
  await app.register(rateLimit, { global: false });
  const perIp = app.createRateLimit({
    max: limits.perIp,
    timeWindow: limits.windowMs,
    keyGenerator: (request) => `ip:${request.ip}`,
  });
  const perAccount = app.createRateLimit({
    max: limits.perAccount,
    timeWindow: limits.windowMs,
    keyGenerator: (request) => `account:${request.rateLimitAccount ?? `ip:${request.ip}`}`,
  });
  const perApiKey = app.createRateLimit({
    max: (request) => request.auth?.apiKey?.rateLimitPerMinute ?? 1,
    timeWindow: 60_000,
    keyGenerator: (request) => `api-key:${request.auth?.apiKey?.id ?? `ip:${request.ip}`}`,
  });
  app.decorate('apiKeyRateLimit', async (request: FastifyRequest) => {
    const result = await perApiKey(request);
    if (!result.isAllowed && result.isExceeded) throw errors.apiKeyRateLimited(result.ttlInSeconds);
  });
  // Runs as a preValidation hook: a malformed body counts against the budget as any attempt does,
  // and is refused before any rule reads it.
  app.decorate('authRateLimit', async (request: FastifyRequest) => {
    // The client's own budget first: a flood from one address is refused before it costs a
    // database read to find its account.
    await spend(perIp, request);
    request.rateLimitAccount = await accountKey(request, guard);
    await spend(perAccount, request);
  });
}

async function spend(limiter: ReturnType<FastifyInstance['createRateLimit']>, request: FastifyRequest): Promise<void> {
  const result = await limiter(request);
  if (!result.isAllowed && result.isExceeded) throw errors.rateLimited(result.ttlInSeconds);
}

/**
 * The account an attempt is against: the signed-in user (a code check; a body cannot name another),
 * else the e-mail of a sign-in (not yet validated, so normalised here from a bounded prefix), or
 * the browser itself when that account knows it.
 */
async function accountKey(request: FastifyRequest, guard: Pick<LoginGuard, 'isKnownFor'>): Promise<string> {
  if (request.auth) return `user:${request.auth.user.id}`;
  const body = request.body as { email?: unknown } | undefined;
  if (typeof body?.email !== 'string') return `ip:${request.ip}`;
  const email = normalizeEmail(body.email.slice(0, EMAIL_MAX * 2));
  const device = deviceOf(request);
  if (device && (await guard.isKnownFor(email, device))) return `device:${hashToken(device)}`;
  return `email:${email}`;
}
