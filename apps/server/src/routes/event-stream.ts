// Server-sent events: `data: <json>` blocks written as events are produced. A client that goes
// away aborts the producer at once; a producer that fails ends with an `error` event (code and
// message), since the status line has already gone out. The producer is pulled only while the
// client reads: when the socket's buffer is full the next event (and with it the next piece of
// generation) waits for it to drain, and a reader that stalls longer than `stallMs` is cut off.
// Events are gathered into one write per GATHER_MS: a generation makes an event per token, and a
// socket write per token cost the service as much event-loop time as the generation's own
// JavaScript. The first event after a quiet spell goes out at once, so nothing waits longer.
import type { ErrorCode } from '@ownvoice/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../errors.js';
import { messageOf } from '../plugins/error-handler.js';

/** Why a stream was cut: its reader stopped reading. */
class ReaderStalled extends Error {
  constructor() {
    super('the client stopped reading the stream');
    this.name = 'ReaderStalled';
  }
}

/** Longest an event waits for others to share its write. */
export const GATHER_MS = 25;

/** What a failure says: known refusals keep their code and message, the rest are logged. */
function failureOf(
  request: FastifyRequest,
  error: unknown,
  failureMessage: string,
): { code: ErrorCode; error: string } {
  if (error instanceof AppError) return { code: error.code, error: messageOf(error, request) };
  request.log.error({ err: error }, 'event stream failed');
  return { code: 'INTERNAL_ERROR', error: failureMessage };
}

/** Resolves true once the response drains, false when it closes or `stallMs` pass first. */
function drained(reply: FastifyReply, stallMs: number): Promise<boolean> {
  const res = reply.raw;
  return new Promise((resolve) => {
    const done = (ok: boolean) => {
      clearTimeout(timer);
      res.off('drain', onDrain);
      res.off('close', onClose);
      resolve(ok);
    };
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const timer = setTimeout(() => done(false), stallMs);
    res.on('drain', onDrain);
    res.on('close', onClose);
  });
}

export interface EventStreamOptions {
  /** How long a reader may stop reading before the stream is cut. */
  stallMs: number;
  /** The event a failure ends with; the API's own `{ type: 'error', code, error }` by default. */
  errorEvent?: (failure: { code: ErrorCode; error: string }) => unknown;
  /** Written as the stream's last `data:` line when it ends (OpenAI's `[DONE]`). */
  closing?: string;
}

export async function sendEventStream(
  request: FastifyRequest,
  reply: FastifyReply,
  produce: (signal: AbortSignal) => AsyncIterable<unknown>,
  failureMessage: string,
  { stallMs, errorEvent = (failure) => ({ type: 'error', ...failure }), closing }: EventStreamOptions,
): Promise<void> {
  const controller = new AbortController();
  const res = reply.raw;
  // The response closing before we ended it means the client went away.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort(new Error('the client disconnected'));
  });
  // A write to a socket the client reset must not become an uncaught error.
  res.on('error', (error) => controller.abort(error));
  reply.hijack();
  res.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // Proxies must pass events through as they come.
    'x-accel-buffering': 'no',
  });
  let pending = '';
  let lastWrite = Number.NEGATIVE_INFINITY;
  let timer: NodeJS.Timeout | undefined;
  /** Set while the socket's buffer is full: resolves true once it drains. */
  let draining: Promise<boolean> | undefined;
  const flush = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending || res.destroyed) return;
    lastWrite = performance.now();
    if (!res.write(pending)) draining ??= drained(reply, stallMs);
    pending = '';
  };
  /** Queues one event; false when the reader is gone or stalled (the stream is then over). */
  const send = async (event: unknown): Promise<boolean> => {
    if (res.destroyed) return false;
    pending += `data: ${JSON.stringify(event)}\n\n`;
    const wait = lastWrite + GATHER_MS - performance.now();
    if (wait <= 0) flush();
    else timer ??= setTimeout(flush, wait);
    if (!draining) return true;
    const ok = await draining;
    draining = undefined;
    if (ok) return true;
    if (!controller.signal.aborted) {
      request.log.warn(`event stream cut: its reader read nothing for ${stallMs} ms`);
      controller.abort(new ReaderStalled());
    }
    clearTimeout(timer);
    res.destroy();
    return false;
  };
  try {
    for await (const event of produce(controller.signal)) {
      if (!(await send(event))) break;
    }
  } catch (error) {
    if (!controller.signal.aborted) await send(errorEvent(failureOf(request, error, failureMessage)));
  } finally {
    if (closing && !res.destroyed && !controller.signal.aborted) pending += `data: ${closing}\n\n`;
    flush();
    if (!res.destroyed) res.end();
  }
}
