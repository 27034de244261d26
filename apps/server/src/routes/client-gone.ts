// The work behind a request stops when its client goes away: the response closing before it was
// written out means nobody will read it (a conversion, a draft, a chat answered whole).
import type { FastifyReply } from 'fastify';

/** A signal that aborts when the client leaves before the answer was written. */
export function clientGoneSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
