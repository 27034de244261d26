// A request's generation lives only as long as its client: these turn the client going away
// (the connection closing before the answer has been sent) into an aborted signal.
import type { FastifyReply } from 'fastify';

/** An AbortSignal that fires when the client goes away before the response has been sent. */
export function hangUpSignal(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client disconnected'));
  });
  // A write to a socket the client reset must not become an uncaught error.
  res.on('error', (error) => controller.abort(error));
  return controller.signal;
}

/**
 * Runs the work of a plain (not streamed) answer under the client's signal. Resolves undefined when
 * the client hung up, having taken the reply out of Fastify's hands: there is no one to answer.
 */
export async function whileConnected<T>(reply: FastifyReply, work: (signal: AbortSignal) => Promise<T>) {
  const signal = hangUpSignal(reply);
  try {
    return await work(signal);
  } catch (error) {
    if (!signal.aborted) throw error;
    reply.hijack();
    return undefined;
  }
}
