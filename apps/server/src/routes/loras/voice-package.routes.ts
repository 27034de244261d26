// A Voice to take home and bring back (services/voice-package.service.ts): GET
// /loras/:id/package downloads the owner's Voice as a .zip; GET /loras/:id/merged-model as one
// GGUF model file, its adapter merged into the base; POST /loras/import takes such a .zip as the
// request body (application/zip) and answers the new Voice. All are the signed-in browser's, or a
// key's with the 'training' scope: a key made to train Voices takes them home.
import { createReadStream } from 'node:fs';
import { apiErrorBodySchema, voiceSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uploadsTempDir } from '../../data-folder.js';
import { AppError } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { clientGoneSignal } from '../client-gone.js';
import { errorResponses, voiceIdParams } from './loras.schemas.js';
import { afterThePackage, beforeThePackage, type ReceivedPackage, receivePackage } from './package-upload.js';

const PACKAGE_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

export async function voicePackageRoutes(
  app: FastifyInstance,
  { voicePackages }: Services,
  { dataDir }: { dataDir: string },
): Promise<void> {
  const auth = { onRequest: app.requireUser, config: { apiKey: 'training' as const } };

  // A .zip, not JSON: no response schema (the params are still checked by theirs).
  app.get<{ Params: { id: string } }>(
    '/loras/:id/package',
    { schema: { params: voiceIdParams }, ...auth },
    async (request, reply) => {
      const { fileName, data } = await voicePackages.download(authOf(request).user, request.params.id);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .header('cache-control', 'no-store')
        .send(data);
    },
  );

  // Hundreds of megabytes, built for this request (seconds to minutes) and streamed from disk; its
  // folder goes once the answer is done, or at once when the client left while it was built.
  app.get<{ Params: { id: string } }>(
    '/loras/:id/merged-model',
    { schema: { params: voiceIdParams }, ...auth },
    async (request, reply) => {
      const gone = clientGoneSignal(reply);
      const merged = await voicePackages.mergedModel(authOf(request).user, request.params.id);
      if (gone.aborted) {
        await merged.release();
        return reply;
      }
      // Read to its end or cut off with the connection: either way nobody reads it again.
      const file = createReadStream(merged.file).once('close', () => void merged.release());
      reply.raw.once('close', () => void merged.release());
      return reply
        .header('content-type', 'application/octet-stream')
        .header('content-length', merged.bytes)
        .header('content-disposition', `attachment; filename="${merged.fileName}"`)
        .header('cache-control', 'no-store')
        .send(file);
    },
  );

  // Its own scope: only here is a .zip a body, streamed to a file (package-upload.ts) once the
  // account has a free storage slot and an upload slot is taken.
  await app.register(async (scope) => {
    scope.addContentTypeParser(PACKAGE_TYPES, receivePackage(uploadsTempDir(dataDir)));
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/loras/import',
      {
        schema: { response: { 201: voiceSchema, ...errorResponses, 409: apiErrorBodySchema, 413: apiErrorBodySchema } },
        ...auth,
        preParsing: beforeThePackage((request) => voicePackages.checkRoom(authOf(request).user)),
        onResponse: afterThePackage,
        onRequestAbort: afterThePackage,
      },
      async (request, reply) => {
        const body = request.body as Partial<ReceivedPackage> | undefined;
        if (typeof body?.file !== 'string' || !body.bytes) {
          throw new AppError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the Voice package (.zip) as the body, as application/zip.',
          );
        }
        const received = { file: body.file, bytes: body.bytes };
        try {
          return reply.status(201).send(await voicePackages.import(authOf(request).user, received));
        } finally {
          // Given back before the answer goes; the hooks cover the paths that never get here.
          await afterThePackage(request);
        }
      },
    );
  });
}
