// The bearer key, checked as vLLM's --api-key checks it: every path under /v1 needs
// `Authorization: Bearer <key>` (any case of "Bearer"), and here /tokenize too (it runs the
// model's tokenizer on any text sent); /health and /metrics stay open, like vLLM's. Keys are compared as SHA-256 digests in constant time, so neither their content nor
// their length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { UNAUTHORIZED_BODY } from './openai-errors.js';

const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();

export function registerBearerAuth(app: FastifyInstance, key: string): void {
  const expected = digest(key);
  const accepted = (header: string | undefined): boolean => {
    if (!header) return false;
    const space = header.indexOf(' ');
    const scheme = space < 0 ? header : header.slice(0, space);
    if (scheme.toLowerCase() !== 'bearer') return false;
    return timingSafeEqual(digest(space < 0 ? '' : header.slice(space + 1)), expected);
  };
  app.addHook('onRequest', async (request, reply) => {
    if (request.method === 'OPTIONS' || !(request.url.startsWith('/v1') || request.url.startsWith('/tokenize'))) return;
    if (!accepted(request.headers.authorization)) return reply.status(401).send(UNAUTHORIZED_BODY);
  });
}
