// Bounds on what a client can hold open by sending slowly or not at all: a body that stops
// arriving is cut, one that arrives too slowly is refused (body-pace.ts), uploads in progress are
// counted per user and in all, and a refusal sent before the body has arrived is followed by a
// bounded read of the rest, so that the client receives it instead of a connection reset.
import type { IncomingMessage } from 'node:http';
import { Socket } from 'node:net';
import { MAX_TOTAL_UPLOAD_BYTES } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import { AppError } from '../errors.js';
import { Slots } from '../slots.js';
import { BodyPace } from './body-pace.js';

declare module 'fastify' {
  interface FastifyInstance {
    uploadSlots: UploadSlots;
  }
}

/** How long the rest of a refused body is read at most, in all and without a byte arriving. */
export const LINGER_MS = 30_000;
export const LINGER_IDLE_MS = 5_000;
/** How much of a refused body is read at most before the connection is closed anyway. */
export const LINGER_MAX_BYTES = MAX_TOTAL_UPLOAD_BYTES + 16 * 1024 * 1024;

/** The key that counts every upload; user ids are hex, so it never names a user. */
const ALL = '*';
/** The share of all slots kept for accounts sending their first upload. */
const FIRST_UPLOAD_SHARE = 0.25;

/**
 * Uploads being received: a bounded number per account, per client address and in all, so
 * stalled ones cannot pile up. An account's second upload waits while a quarter of all slots or
 * fewer is free: that quarter is for people sending their first, so a handful of accounts (or
 * one address with many) cannot take every slot. The body a slot receives is held to the body
 * pace (body-pace.ts, from the onRequest hook below), so a trickle loses its slot.
 */
export class UploadSlots {
  private readonly slots = new Slots();

  constructor(private readonly limits: Config['uploads']) {}

  /** Takes a slot for `userId` from `ip` or throws a 429 saying why; the returned function gives it back (once). */
  take(userId: string, ip: string): () => void {
    const mine = this.slots.tryTake(userId, this.limits.perUser);
    if (!mine) {
      throw new AppError(
        429,
        'RATE_LIMITED',
        `You are already sending ${this.slots.count(userId)} uploads. Please wait for one to finish, then try again.`,
        { retryAfterSeconds: 10 },
      );
    }
    const fromIp = this.slots.tryTake(`ip:${ip}`, this.limits.perIp);
    const reserve = this.slots.count(userId) > 1 ? Math.ceil(this.limits.total * FIRST_UPLOAD_SHARE) : 0;
    const ofAll = fromIp && this.slots.tryTake(ALL, this.limits.total - reserve);
    if (!fromIp || !ofAll) {
      mine();
      fromIp?.();
      throw new AppError(
        429,
        'RATE_LIMITED',
        fromIp
          ? 'The server is receiving many uploads right now. Please try again in a minute.'
          : 'Many uploads are coming from your network right now. Please wait for one to finish, then try again.',
        { retryAfterSeconds: 60 },
      );
    }
    return () => {
      mine();
      fromIp();
      ofAll();
    };
  }
}

/** How often Node checks the request and header timeouts: often enough to keep them close to their value. */
export const connectionsCheckingInterval = (http: Config['http']): number =>
  Math.max(100, Math.min(30_000, Math.floor(Math.min(http.headersTimeoutMs, http.requestTimeoutMs) / 4)));

/** A request on a real connection (not an injected one) whose body has yet to arrive in full. */
const bodyArriving = (raw: IncomingMessage): boolean =>
  raw.socket instanceof Socket &&
  !raw.complete &&
  (raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0);

export function registerHttpLimits(app: FastifyInstance, config: Pick<Config, 'http' | 'uploads'>): void {
  app.decorate('uploadSlots', new UploadSlots(config.uploads));
  const pace = new BodyPace(config.http);
  app.addHook('onClose', (_app, done) => {
    pace.close();
    done();
  });

  // While a body is arriving, the socket may sit idle only this long: Node then destroys it (no
  // 'timeout' listener keeps it), which ends the body's readers with an error, so an upload's
  // files are deleted. Once the body is in, the response may take as long as it needs. Every
  // body arriving is also held to a pace, so a trickle cannot keep what it holds (an upload slot
  // above all) for the whole request timeout.
  app.addHook('onRequest', (request, reply, done) => {
    const raw = request.raw;
    if (!bodyArriving(raw)) return done();
    pace.watch(raw, reply.raw);
    raw.socket.setTimeout(config.http.bodyIdleTimeoutMs);
    raw.once('end', () => {
      // After the response, Node sets its own keep-alive timeout on the socket: leave that.
      if (!reply.raw.writableEnded) raw.socket.setTimeout(0);
    });
    done();
  });

  // A refusal sent before the body has arrived (413, 400, 401 on an upload...) closes the
  // connection, after reading the rest of the body within bounds, as nginx's lingering close
  // does. Closing at once would reset the connection while the client is still sending, and
  // most clients then lose the answer.
  app.addHook('onSend', (request, reply, payload, done) => {
    const raw = request.raw;
    if (bodyArriving(raw) && !reply.raw.headersSent) {
      reply.header('connection', 'close');
      lingerOnClose(raw);
    }
    done(null, payload);
  });
}

/** Makes the server's close of this connection (after its last response) a lingering one. */
function lingerOnClose(raw: IncomingMessage): void {
  const socket = raw.socket as Socket & { destroySoon?: () => void };
  // Node calls destroySoon once the last response on a connection has been written.
  socket.destroySoon = () => {
    if (socket.writable) socket.end();
    let bytes = 0;
    const close = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(close, LINGER_MS);
    socket.setTimeout(LINGER_IDLE_MS);
    socket.once('close', () => clearTimeout(timer));
    // Whoever was reading the body (a multipart parser) has stopped: discard the rest.
    raw.unpipe();
    raw.removeAllListeners('data');
    raw.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > LINGER_MAX_BYTES) close();
    });
    raw.once('end', close);
    raw.once('error', close);
    socket.once('end', close);
    raw.resume();
  };
}
