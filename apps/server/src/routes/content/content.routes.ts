// /api/content: Create Content. Quick generation streams server-sent events (spec §7).
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { cleanExtracted, extractText, TextExtractionError, uploadErrorMessage } from '@ownvoice/engine';
import {
  apiErrorBodySchema,
  generateFieldsSchema,
  interactiveNextRequestSchema,
  interactiveNextResponseSchema,
} from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { sendEventStream } from '../event-stream.js';
import { errorResponses } from '../loras/loras.schemas.js';
import { receiveVoiceUpload } from '../loras/voice-upload.js';

export async function contentRoutes(
  app: FastifyInstance,
  { content, interactive }: Services,
  { dataDir }: { dataDir: string },
): Promise<void> {
  const uploadsTmp = path.join(dataDir, 'tmp');

  app.post('/content/generate-stream', { onRequest: app.requireUser }, async (request, reply) => {
    const upload = await receiveVoiceUpload(request, uploadsTmp, 'referenceFile');
    let reference: string | undefined;
    let fields: ReturnType<typeof generateFieldsSchema.parse>;
    try {
      const parsed = generateFieldsSchema.safeParse(upload.fields);
      if (!parsed.success) throw errors.validation(parsed.error.issues[0]?.message ?? 'Invalid request');
      fields = parsed.data;
      if (upload.files.length > 1) throw errors.validation('Send at most one reference file.');
      const [file] = upload.files;
      if (file) {
        try {
          reference = cleanExtracted(await extractText({ name: file.name, data: await readFile(file.path) }));
        } catch (error) {
          if (error instanceof TextExtractionError) throw errors.validation(uploadErrorMessage([error]));
          throw error;
        }
      }
    } finally {
      await rm(upload.dir, { recursive: true, force: true });
    }
    const prepared = await content.prepareQuick(authOf(request).user, {
      prompt: fields.prompt,
      format: fields.format,
      voiceId: fields.selectedLora,
      reference,
    });
    await sendEventStream(request, reply, (signal) => prepared.events(signal), 'Failed to generate content');
  });

  app.withTypeProvider<ZodTypeProvider>().post(
    '/content/interactive/next',
    {
      schema: {
        body: interactiveNextRequestSchema,
        response: { 200: interactiveNextResponseSchema, ...errorResponses, 503: apiErrorBodySchema },
      },
      onRequest: app.requireUser,
    },
    async (request, reply) => {
      // A client that gives up stops the model's work.
      const controller = new AbortController();
      reply.raw.on('close', () => {
        if (!reply.raw.writableFinished) controller.abort();
      });
      const state = await interactive.next(
        authOf(request).user,
        request.body.state,
        request.body.action,
        controller.signal,
      );
      return { state };
    },
  );
}
