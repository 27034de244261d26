// A Voice to take home and bring back (services/voice-package.service.ts): GET
// /loras/:id/package downloads the owner's Voice as a .zip; POST /loras/import takes such a .zip
// as the request body (application/zip) and answers the new Voice. Both are the signed-in
// browser's: a key cannot carry a Voice's adapter away.
import { apiErrorBodySchema, MAX_VOICE_PACKAGE_BYTES, VOICE_PACKAGE_MESSAGES, voiceSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError, errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import { errorAnswer, sendApiError } from '../../plugins/error-handler.js';
import type { Services } from '../../services/index.js';
import { errorResponses, voiceIdParams } from './loras.schemas.js';

const PACKAGE_TYPES = ['application/zip', 'application/x-zip-compressed', 'application/octet-stream'];

export async function voicePackageRoutes(app: FastifyInstance, { voicePackages }: Services): Promise<void> {
  const auth = { onRequest: app.requireUser };

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

  // Its own scope: only here is a .zip a body, read whole up to a package's size.
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      PACKAGE_TYPES,
      { parseAs: 'buffer', bodyLimit: MAX_VOICE_PACKAGE_BYTES },
      (_request, body, done) => done(null, body),
    );
    scope.withTypeProvider<ZodTypeProvider>().post(
      '/loras/import',
      {
        schema: { response: { 201: voiceSchema, ...errorResponses, 409: apiErrorBodySchema, 413: apiErrorBodySchema } },
        ...auth,
        // The body limit's own 413 says what a package's limit is.
        errorHandler: (error, request, reply) =>
          sendApiError(
            reply,
            errorAnswer(
              error.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
                ? errors.uploadTooLarge(VOICE_PACKAGE_MESSAGES.tooLarge)
                : error,
              request,
            ),
          ),
      },
      async (request, reply) => {
        if (!Buffer.isBuffer(request.body) || request.body.length === 0) {
          throw new AppError(
            415,
            'UNSUPPORTED_MEDIA_TYPE',
            'Send the Voice package (.zip) as the body, as application/zip.',
          );
        }
        const release = request.server.uploadSlots.take(authOf(request).user.id, request.ip);
        try {
          return reply.status(201).send(await voicePackages.import(authOf(request).user, request.body));
        } finally {
          release();
        }
      },
    );
  });
}
