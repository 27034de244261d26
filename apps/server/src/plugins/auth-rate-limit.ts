// Rate limits for the sign-in and sign-up routes and for code checks: one budget per client IP and
// one per account, both from configuration. The account is the signed-in user whenever there is
// one (whatever the body says), else the e-mail typed; a browser the account has signed in from
// before has a budget of its own, so nobody can spend its owner's by guessing elsewhere. Loopback
// is not exempt: a proxy on the same host would otherwise exempt everyone.
import rateLimit from '@fastify/rate-limit';
import { EMAIL_MAX, normalizeEmail } from '@ownvoice/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import { errors } from '../errors.js';
import type { LoginGuard } from '../services/login-guard.js';
import { hashToken } from '../services/tokens.js';
import { deviceOf } from './device-cookie.js';

declare module 'fastify' {
  interface FastifyInstance {
    authRateLimit: (request: FastifyRequest) => Promise<void>;
    /**
     * An API key's own budget of requests a minute (its `rateLimitPerMinute`); after requireUser.
     * The answer says what is left of it (`reply`: the route's; none from a call of its own).
     */
    apiKeyRateLimit: (request: FastifyRequest, reply?: FastifyReply) => Promise<void>;
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
  app.decorate('apiKeyRateLimit', async (request: FastifyRequest, reply?: FastifyReply) => {
    const result = await perApiKey(request);
    // (`isAllowed` is an allow-list's pass, which this limit has none of.)
    if (result.isAllowed) return;
    if (reply) sayBudget(reply, result);
    if (result.isExceeded) throw errors.apiKeyRateLimited(result.ttlInSeconds);
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

/**
 * A key's budget on its answers, in the headers OpenAI's API answers with (decision 44): the
 * requests a minute, those left, and how long until the window starts afresh, as OpenAI writes a
 * duration ("45s", "1m0s"). Written on the raw response, as helmet's headers are, so that a
 * server-sent stream carries them too.
 */
function sayBudget(reply: FastifyReply, { max, remaining, ttl }: { max: number; remaining: number; ttl: number }) {
  reply.raw.setHeader('x-ratelimit-limit-requests', max);
  reply.raw.setHeader('x-ratelimit-remaining-requests', remaining);
  reply.raw.setHeader('x-ratelimit-reset-requests', durationOf(ttl));
}

/** Milliseconds as OpenAI's headers write a duration: "850ms", "45s", "1m0s". */
export function durationOf(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))}ms`;
  const seconds = Math.ceil(ms / 1000);
  return seconds < 60 ? `${seconds}s` : `${Math.floor(seconds / 60)}m${seconds % 60}s`;
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
