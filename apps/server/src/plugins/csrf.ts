// CSRF protection (docs/decisions/0002-csrf.md): a random secret lives in an httpOnly,
// SameSite=Strict cookie; GET /api/csrf-token hands out a token derived from it, which every
// state-changing request must echo in X-CSRF-Token. A page on another origin can neither read
// the token nor set the header, so it cannot forge a request.
import Tokens from '@fastify/csrf';
import { CSRF_HEADER, CSRF_TOKEN_VALIDITY_MS } from '@ownvoice/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { sentApiKey } from './authenticate.js';

export const CSRF_COOKIE = 'ov_csrf';
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

const tokens = new Tokens({ validity: CSRF_TOKEN_VALIDITY_MS });

/** Returns a fresh token, setting the secret cookie first if the browser has none. */
export function issueCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  let secret = request.cookies[CSRF_COOKIE];
  if (!secret) {
    secret = tokens.secretSync();
    reply.setCookie(CSRF_COOKIE, secret, {
      path: '/api',
      httpOnly: true,
      sameSite: 'strict',
      secure: request.protocol === 'https',
    });
  }
  return tokens.create(secret);
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * False for the few routes a browser page of ours does not call: the payment provider's
     * webhook (its signature is its credential), the offline test checkout's buttons (the
     * unguessable checkout id is theirs, as with a hosted checkout page), and /v1, which takes API
     * keys only (a browser never sends one on its own).
     */
    csrf?: boolean;
  }
}

export function registerCsrfCheck(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    if (SAFE_METHODS.has(request.method)) return;
    if (request.routeOptions.config.csrf === false) return;
    // An API key is sent by a program on purpose, never by a browser on its own (a page on another
    // origin cannot set Authorization), so it needs no CSRF token; routes that take no key refuse it.
    if (sentApiKey(request)) return;
    const secret = request.cookies[CSRF_COOKIE];
    if (!secret) {
      throw new AppError(
        403,
        'CSRF_MISSING_SECRET',
        'Your browser did not send the security cookie. Reload the page (and allow cookies for this site), then try again.',
      );
    }
    const header = request.headers[CSRF_HEADER];
    const token = Array.isArray(header) ? header[0] : header;
    if (!token) {
      throw new AppError(403, 'CSRF_MISSING_TOKEN', 'Missing security token. Reload the page and try again.');
    }
    if (!tokens.verify(secret, token)) {
      throw new AppError(403, 'CSRF_INVALID_TOKEN', 'Your security token has expired. Reload the page and try again.');
    }
  });
}
