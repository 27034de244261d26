// Server-sent events: `data: <json>` blocks written as events are produced. A client that goes
// away aborts the producer at once; a producer that fails ends with an `error` event, since the
// status line has already gone out.
import type { FastifyReply, FastifyRequest } from 'fastify';

export async function sendEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  produce: (signal: AbortSignal) => AsyncIterable<unknown>,
  failureMessage: string,
): Promise<void> {
  const controller = new AbortController();
  // The response closing before we ended it means the client went away.
  reply.raw.on('close', () => {
    if (!reply.raw.writableFinished) controller.abort(new Error('the client disconnected'));
  });
  reply.hijack();
  reply.raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies must pass events through as they come.
    'x-accel-buffering': 'no',
  });
  const send = (event: unknown) => reply.raw.write(`data: ${JSON.stringify(event)}\n\n`);
  try {
    for await (const event of produce(controller.signal)) send(event);
  } catch (error) {
    if (!controller.signal.aborted) {
      request.log.error({ err: error }, 'event stream failed');
      send({ type: 'error', error: failureMessage });
    }
  } finally {
    reply.raw.end();
  }
}
