// Server-sent events as vLLM streams them: `data: <json chunk>` events, then `data: [DONE]`. A
// failure after the status line has gone out is one more event, `data: {"error": {...}}` (vLLM's
// ErrorResponse), before `[DONE]`, so a reader always sees the stream end. A client that hangs up
// aborts the producer's signal at once, which stops its generation. Writes wait for a full socket
// buffer to drain, so a slow reader holds events in the socket, not in memory here.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { hangUpSignal } from './client-signal.js';
import { toOpenAIError } from './openai-errors.js';

/** Resolves once the response drains, or closes. */
const drained = (reply: FastifyReply) =>
  new Promise<void>((resolve) => {
    const done = () => {
      reply.raw.off('drain', done);
      reply.raw.off('close', done);
      resolve();
    };
    reply.raw.on('drain', done);
    reply.raw.on('close', done);
  });

export async function sendEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  produce: (signal: AbortSignal) => AsyncIterable<unknown>,
): Promise<void> {
  const signal = hangUpSignal(reply);
  const res = reply.raw;
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    // Proxies must pass events through as they come.
    'x-accel-buffering': 'no',
  });
  const write = async (data: string) => {
    if (res.destroyed) return;
    if (!res.write(`data: ${data}\n\n`)) await drained(reply);
  };
  try {
    for await (const chunk of produce(signal)) {
      if (signal.aborted) break;
      await write(JSON.stringify(chunk));
    }
  } catch (error) {
    if (!signal.aborted) {
      const failure = toOpenAIError(error, (err) => request.log.error({ err }, 'stream failed'));
      await write(JSON.stringify(failure.body));
    }
  } finally {
    if (!res.destroyed) {
      await write('[DONE]');
      res.end();
    }
  }
}
