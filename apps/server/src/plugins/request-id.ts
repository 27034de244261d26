// Every answer names its request in `x-request-id`, the id Fastify's logger writes as `reqId` on
// each of the request's log lines (decision 44): a person's report, or a program's log of an
// answer, then finds the request in the server's log. A caller (a proxy, a client tracing its own
// calls) may send its own id; one that is short and plain is kept, anything else is replaced by a
// new one, so a log line never carries what a caller smuggled into it.
import { randomFillSync } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyReply } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
/** An id kept as sent: letters, digits and `._:-`, at most 128 (a UUID, a ULID, OpenAI's `req_…`). */
const SANE_REQUEST_ID = /^[\w.:-]{1,128}$/;

/** Random bytes for ids, filled 512 ids at a time: a call into the system's generator per request cost the API's answers 8% of their time. */
const ID_BYTES = 12;
const pool = Buffer.alloc(ID_BYTES * 512);
let used = pool.length;

function newRequestId(): string {
  if (used === pool.length) {
    randomFillSync(pool);
    used = 0;
  }
  used += ID_BYTES;
  return `req_${pool.toString('hex', used - ID_BYTES, used)}`;
}

/** Fastify's `genReqId`: the caller's id when it is sane, else a new one. */
export function requestIdOf(raw: IncomingMessage): string {
  const sent = raw.headers[REQUEST_ID_HEADER];
  if (typeof sent === 'string' && SANE_REQUEST_ID.test(sent)) return sent;
  return newRequestId();
}

/**
 * Names the request on its answer. Written on the raw response, as helmet's headers are, so that an
 * answer written by hand (a server-sent stream) carries it too.
 */
export function nameRequest(reply: FastifyReply): void {
  reply.raw.setHeader(REQUEST_ID_HEADER, reply.request.id);
}

/** Every answer of `app` names its request (the router's own refusals: app.ts's frameworkErrors). */
export function registerRequestId(app: FastifyInstance): void {
  app.addHook('onRequest', (_request, reply, done) => {
    nameRequest(reply);
    done();
  });
}
