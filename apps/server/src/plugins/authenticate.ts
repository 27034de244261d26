// Resolves the bearer token of a request to its user. Routes opt in with
// `onRequest: app.requireUser` (or `app.requireAdmin`); inside them `request.auth` is set. It runs
// on request, before the body is read or validated: a caller who may not use a route learns
// nothing about its input rules, and an anonymous upload is refused before it is received.
// The token is a session's, or an API key's ("ovk_…"): a key is taken only where the route says
// which scope it needs (`config: { apiKey: 'convert' }`, or several a key may hold any of), so account, billing, admin and the keys
// themselves stay out of a key's reach by default; it then has its own rate limit.
import type { ApiKeyScope } from '@ownvoice/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import { adminPolicy } from '../policies/index.js';
import { type ApiKeysService, isApiKeySecret } from '../services/api-keys.service.js';
import type {
  AuthContext,
  SelfContext,
  SessionContext,
  SessionMeta,
  SessionsService,
} from '../services/sessions.service.js';
import { ensureDevice } from './device-cookie.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope an API key needs for this route (any one of a list); absent: keys may not use it. */
    apiKey?: ApiKeyScope | readonly ApiKeyScope[];
  }
  interface FastifyRequest {
    auth: AuthContext | null;
    /** Set by `requireSelf` instead of `auth`: the user's own view, without secrets. */
    self: SelfContext | null;
  }
  interface FastifyInstance {
    /** As a route's onRequest hook it gets the reply, on which an API key's budget is said. */
    requireUser: (request: FastifyRequest, reply?: FastifyReply) => Promise<void>;
    /** requireUser for the route answering the user's own view: sets `request.self`, usage included. */
    requireSelf: (request: FastifyRequest) => Promise<void>;
    /** An admin or super admin with two-factor on (403 FORBIDDEN / MFA_REQUIRED otherwise). */
    requireAdmin: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/**
 * What a new session records of where it was made (shown in the account's security events), and
 * the browser's device cookie, given to it now if it has none.
 */
export const sessionMeta = (request: FastifyRequest, reply: FastifyReply): SessionMeta => ({
  ip: request.ip,
  userAgent: request.headers['user-agent'],
  device: ensureDevice(request, reply),
});

/** The user's own view of a request that passed `requireSelf`. */
export function selfOf(request: FastifyRequest): SelfContext {
  if (!request.self) throw errors.unauthenticated();
  return request.self;
}

/**
 * The signed-in browser's session of a request that passed `requireUser`: account, two-factor and
 * admin steps act on it. Such routes take no API key, so a key never gets here.
 */
export function sessionOf(request: FastifyRequest): SessionContext {
  const { user, session } = authOf(request);
  if (!session) throw errors.apiKeyNotAllowed();
  return { user, session };
}

/** The authenticated context of a request that passed `requireUser`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw errors.unauthenticated();
  return request.auth;
}

/** The scopes a route's `config.apiKey` takes, as a list. */
export const routeScopes = (scope: ApiKeyScope | readonly ApiKeyScope[]): readonly ApiKeyScope[] =>
  typeof scope === 'string' ? [scope] : scope;

/** Whether the request's bearer token is an API key (it then needs no CSRF token: plugins/csrf.ts). */
export const sentApiKey = (request: FastifyRequest): boolean => isApiKeySecret(bearerToken(request) ?? '');

export function registerAuthentication(
  app: FastifyInstance,
  sessions: SessionsService,
  apiKeys: Pick<ApiKeysService, 'authenticate'>,
): void {
  app.decorateRequest('auth', null);
  app.decorate('requireUser', async (request: FastifyRequest, reply?: FastifyReply) => {
    const token = bearerToken(request);
    if (!token) throw errors.unauthenticated();
    if (!isApiKeySecret(token)) {
      request.auth = await sessions.authenticate(token);
      return;
    }
    const scope = request.routeOptions.config.apiKey;
    if (!scope) throw errors.apiKeyNotAllowed();
    // Wrong keys count against the client's address, as wrong passwords do (services/login-guard.ts).
    const { user, key } = await apiKeys.authenticate(token, routeScopes(scope), request.ip);
    request.auth = { user, session: null, apiKey: key };
    await app.apiKeyRateLimit(request, reply);
  });
  app.decorateRequest('self', null);
  app.decorate('requireSelf', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw errors.unauthenticated();
    // The account's own view (its e-mail, billing, usage) is the owner's, never a key's.
    if (isApiKeySecret(token)) throw errors.apiKeyNotAllowed();
    request.self = await sessions.authenticateSelf(token);
  });
  app.decorate('requireAdmin', async (request: FastifyRequest) => {
    await app.requireUser(request);
    const access = adminPolicy.access(authOf(request).user);
    if (access === 'not_admin') throw errors.forbidden('This page is for administrators.');
    if (access === 'needs_mfa') throw errors.mfaRequired();
  });
}
