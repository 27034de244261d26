// Cross-origin calls to OpenAI's protocol under /v1 (decision 44): a page on any origin may call
// it with an API key, as it may call OpenAI's own API. The key in the Authorization header is the
// credential; /v1 reads no cookie and takes no browser session, so answering every origin gives a
// page nothing it did not bring. Every answer under /v1 says `Access-Control-Allow-Origin: *` (a
// refusal too, so a page reads why it was refused), and a preflight is answered by itself: 204,
// without a key, never the 401 its missing key would earn. /api stays same-origin: no header, so
// a browser keeps other sites from reading it.
import type { FastifyInstance, FastifyReply } from 'fastify';

/** What a page may read of an answer besides the simple headers: the request id, its budget, when to retry. */
export const EXPOSED_HEADERS = [
  'x-request-id',
  'x-ratelimit-limit-requests',
  'x-ratelimit-remaining-requests',
  'x-ratelimit-reset-requests',
  'retry-after',
  'x-should-retry',
] as const;

/** The methods of /v1's routes. */
const ALLOWED_METHODS = 'GET, POST';
/** What a preflight allows when it names no headers, or names them in a way not worth echoing. */
const DEFAULT_ALLOWED_HEADERS = 'authorization, content-type';
/** A comma-separated list of header names (RFC 9110 tokens), as a browser sends it. */
const HEADER_LIST = /^[!#$%&'*+.^`|~\w-]+(?:\s*,\s*[!#$%&'*+.^`|~\w-]+)*$/;
/** How long a browser may keep a preflight's answer: a changed policy reaches it within minutes. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Lets any origin read this answer. Written on the raw response, as helmet's headers are, so that
 * an answer written by hand (a server-sent stream) carries it too.
 */
export function allowAnyOrigin(reply: FastifyReply): void {
  reply.raw.setHeader('access-control-allow-origin', '*');
  reply.raw.setHeader('access-control-expose-headers', EXPOSED_HEADERS.join(', '));
}

/** The policy for `app`'s routes (the /v1 scope); before its other hooks, whose refusals it covers. */
export function registerKeyCors(app: FastifyInstance): void {
  app.addHook('onRequest', async (_request, reply) => allowAnyOrigin(reply));
  // Headers the SDKs send (the openai SDK's x-stainless-* among them) are allowed as asked:
  // Authorization must be named, `*` does not cover it.
  app.options('/*', { schema: { hide: true } }, async (request, reply) => {
    const asked = request.headers['access-control-request-headers'];
    const list = typeof asked === 'string' ? asked.trim() : '';
    const echoed = list.length <= 2000 && HEADER_LIST.test(list);
    return reply
      .status(204)
      .header('access-control-allow-methods', ALLOWED_METHODS)
      .header('access-control-allow-headers', echoed ? list : DEFAULT_ALLOWED_HEADERS)
      .header('access-control-max-age', PREFLIGHT_MAX_AGE_SECONDS)
      .header('vary', 'access-control-request-headers')
      .send();
  });
}
