// The bearer key, checked as vLLM's --api-key checks it — `Authorization: Bearer <key>`, any case
// of "Bearer" — but on every route except /health (vLLM also leaves /metrics and /tokenize open;
// here they say which Voices are awake and run the model). The check is on the route the request
// was matched to, never on the raw URL: the router decodes the path (`/%761/models` is
// `/v1/models`), so a prefix test on the raw URL could be stepped around. Keys are compared as
// SHA-256 digests in constant time, so neither their content nor their length leaks through timing.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { UNAUTHORIZED_BODY } from './openai-errors.js';

/** Routes anyone may call: a load balancer's health probe. */
const OPEN_ROUTES: ReadonlySet<string> = new Set(['/health']);

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
    // Routing is done before onRequest: the matched route's pattern, or none for a 404.
    const route = request.routeOptions.url;
    if (route === undefined || OPEN_ROUTES.has(route)) return;
    if (!accepted(request.headers.authorization)) return reply.status(401).send(UNAUTHORIZED_BODY);
  });
}
