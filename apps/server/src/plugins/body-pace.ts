// The pace a request body must keep (decision 34). After a grace, a body must have arrived at an
// average of at least `bodyMinBytesPerSecond` since the server began reading it, or it is refused
// with 408: whatever holds it (an upload slot, a parser, a connection) is freed, and an upload's
// files are deleted by its reader. The idle timeout alone let a trickle of a byte every 29 s hold
// an upload slot for the whole request timeout, so 40 trickles from 8 addresses kept every
// honest upload out.
//
// The shipped numbers (config.ts): 64 KB a second after 20 s. An honest 1 Mbit/s connection sends
// 122 KB a second, about twice the pace, so it keeps well ahead through stalls and TCP's slow
// start: its 50 MB upload takes 7 minutes and is never behind. A trickle below the pace is cut
// seconds after the grace. Holding all 32 slots now takes 32 × 64 KB/s (about 17 Mbit/s) of real
// sending from at least 8 addresses, and each upload ends by its 50 MB within 14 minutes (the
// request timeout, 15 minutes, is above that).
//
// Only time the server spends reading counts: while nobody reads the body (a route still checking
// who is asking) or the server holds it back (its disk is slow), the clock stops, so a slow server
// never blames its client.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';

export type BodyPaceLimits = Pick<Config['http'], 'bodyMinBytesPerSecond' | 'bodyGraceMs'>;

/** The bytes a body must have delivered after `readingMs` of being read: nothing in the grace. */
export function bytesDue(limits: BodyPaceLimits, readingMs: number): number {
  return (Math.max(0, readingMs - limits.bodyGraceMs) / 1000) * limits.bodyMinBytesPerSecond;
}

/** The refusal: what happened and what to do, in the API's body. */
export function tooSlow(limits: BodyPaceLimits): AppError {
  const kb = Math.round(limits.bodyMinBytesPerSecond / 1024);
  return new AppError(
    408,
    'REQUEST_TIMEOUT',
    `Your upload arrived too slowly (under ${kb} KB a second), so the server stopped receiving it to keep room for others. Please try again on a faster connection, or send fewer or smaller files at once.`,
  );
}

interface Watched {
  raw: IncomingMessage;
  res: ServerResponse;
  /** Kept here: `stream.pipeline` detaches it from a request it destroys, and it lives on. */
  socket: Socket;
  /** The socket's bytes read when watching began (a kept-alive socket carried earlier requests). */
  baseline: number;
  /** How long the body has been read so far. */
  readingMs: number;
  lastSweep: number;
}

/**
 * Every body still arriving, checked together a few times a second by one timer, in real time (not
 * clock.ts's: this is about bytes on a socket).
 */
export class BodyPace {
  private readonly bodies = new Set<Watched>();
  private timer: NodeJS.Timeout | undefined;
  private readonly sweepMs: number;

  constructor(private readonly limits: BodyPaceLimits) {
    // A quarter of the grace, within 50 ms and 1 s: a body is cut soon after it falls behind.
    this.sweepMs = Math.min(1000, Math.max(50, Math.floor(limits.bodyGraceMs / 4)));
  }

  /** Watches the body of `raw` until it has arrived, the connection closes, or it is cut. */
  watch(raw: IncomingMessage, res: ServerResponse): void {
    const socket = raw.socket;
    this.bodies.add({ raw, res, socket, baseline: socket.bytesRead, readingMs: 0, lastSweep: Date.now() });
    this.timer ??= setInterval(() => this.sweep(), this.sweepMs).unref();
  }

  close(): void {
    clearInterval(this.timer);
    this.timer = undefined;
    this.bodies.clear();
  }

  private sweep(): void {
    const now = Date.now();
    for (const body of this.bodies) {
      const { raw, socket } = body;
      if (raw.complete || socket.destroyed) {
        this.bodies.delete(body);
        continue;
      }
      // Flowing: a reader takes the body as it comes; destroyed: the rest is dropped as it comes.
      // Paused or never started is the server's doing, and does not count.
      if (raw.readableFlowing === true || raw.destroyed) body.readingMs += now - body.lastSweep;
      body.lastSweep = now;
      if (socket.bytesRead - body.baseline >= bytesDue(this.limits, body.readingMs)) continue;
      this.bodies.delete(body);
      this.cut(body);
    }
    if (this.bodies.size === 0) this.close();
  }

  /**
   * Its reader (a multipart parser, Fastify's body parser) gets the refusal as a stream error and
   * fails with it, so the route answers 408 and the lingering close reads what is still coming.
   * With no reader left to answer (the answer went, the body is being drained), the connection
   * simply closes.
   */
  private cut({ raw, res, socket }: Watched): void {
    if (!res.headersSent && !raw.destroyed && raw.listenerCount('error') > 0) raw.emit('error', tooSlow(this.limits));
    else socket.destroy();
  }
}
