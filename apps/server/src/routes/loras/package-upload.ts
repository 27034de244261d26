// Receives a Voice package (POST /loras/import) onto disk, never into the API's memory: the
// body streams to a file under the data folder's tmp/, counted as it comes and cut past a
// package's limit. Before any of it is read, the account must have a free storage slot and an
// upload slot is taken; both refusals come before the body, and the slot and the file are given
// back when the response ends, however it ends.
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MAX_VOICE_PACKAGE_BYTES, VOICE_PACKAGE_MESSAGES } from '@ownvoice/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';

/** A package as received: its file and length. */
export interface ReceivedPackage {
  file: string;
  bytes: number;
}

/** What a request holds while its package arrives and is imported: given back on its response. */
const held = new WeakMap<FastifyRequest, { release: () => void; file?: string }>();

/**
 * The preParsing step: refuses a body declared larger than a package, then checks `hasRoom`
 * (a free storage slot) and takes an upload slot, all before a byte of the body is read.
 */
export function beforeThePackage(hasRoom: (request: FastifyRequest) => Promise<void>) {
  return async (request: FastifyRequest, _reply: FastifyReply, payload: NodeJS.ReadableStream) => {
    if (Number(request.headers['content-length'] ?? 0) > MAX_VOICE_PACKAGE_BYTES) {
      throw errors.uploadTooLarge(VOICE_PACKAGE_MESSAGES.tooLarge);
    }
    await hasRoom(request);
    const release = request.server.uploadSlots.take(authOf(request).user.id, request.ip);
    held.set(request, { release });
    return payload;
  };
}

/** The onResponse and onRequestAbort step: the upload slot and the received file given back. */
export async function afterThePackage(request: FastifyRequest): Promise<void> {
  const holding = held.get(request);
  if (!holding) return;
  held.delete(request);
  holding.release();
  if (holding.file) await rm(holding.file, { force: true });
}

/** The content-type parser: the body into a new file under `tmpRoot`, at most a package's size. */
export function receivePackage(tmpRoot: string) {
  return async (request: FastifyRequest, payload: NodeJS.ReadableStream): Promise<ReceivedPackage> => {
    await mkdir(tmpRoot, { recursive: true, mode: 0o700 });
    const file = path.join(tmpRoot, `package-${randomBytes(8).toString('hex')}.zip`);
    const holding = held.get(request);
    if (holding) holding.file = file;
    let bytes = 0;
    const count = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        bytes += chunk.length;
        if (bytes > MAX_VOICE_PACKAGE_BYTES) return done(errors.uploadTooLarge(VOICE_PACKAGE_MESSAGES.tooLarge));
        done(null, chunk);
      },
    });
    try {
      await pipeline(payload, count, createWriteStream(file, { mode: 0o600 }));
    } catch (error) {
      await rm(file, { force: true });
      throw error;
    }
    return { file, bytes };
  };
}
