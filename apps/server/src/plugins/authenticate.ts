// Resolves the bearer token of a request to its user. Routes opt in with
// `preHandler: app.requireUser`; inside them `request.auth` is set.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errors } from '../errors.js';
import type { AuthContext, SessionsService } from '../services/sessions.service.js';

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    requireUser: (request: FastifyRequest) => Promise<void>;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1];
}

/** The authenticated context of a request that passed `requireUser`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw errors.unauthenticated();
  return request.auth;
}

export function registerAuthentication(app: FastifyInstance, sessions: SessionsService): void {
  app.decorateRequest('auth', null);
  app.decorate('requireUser', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (!token) throw errors.unauthenticated();
    request.auth = await sessions.authenticate(token);
  });
}
