// /api/content: Create Content. Quick generation streams server-sent events.
import { readFile, rm } from 'node:fs/promises';
import { extractTrainingText, TextExtractionError, uploadErrorMessage } from '@ownvoice/engine';
import { apiErrorBodySchema, interactiveNextRequestSchema, interactiveNextResponseSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uploadsTempDir } from '../../data-folder.js';
import { errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import { requireConvertAndCreate } from '../../policies/index.js';
import type { Services } from '../../services/index.js';
import { clientGoneSignal } from '../client-gone.js';
import { sendEventStream } from '../event-stream.js';
import { errorResponses } from '../loras/loras.schemas.js';
import { FORMS, receiveVoiceUpload } from '../loras/voice-upload.js';

export async function contentRoutes(
  app: FastifyInstance,
  { content, conversion, interactive }: Services,
  { dataDir }: { dataDir: string },
): Promise<void> {
  const uploadsTmp = uploadsTempDir(dataDir);

  // Create takes API keys with the 'create' scope (plugins/authenticate.ts).
  app.post(
    '/content/generate-stream',
    { onRequest: app.requireUser, config: { apiKey: 'create' } },
    async (request, reply) => {
      const caller = authOf(request);
      const { user } = caller;
      requireConvertAndCreate(user);
      const upload = await receiveVoiceUpload(request, uploadsTmp, FORMS.generate);
      let prepared: Awaited<ReturnType<typeof content.prepareQuick>>;
      let release: () => void = () => {};
      try {
        const { fields } = upload;
        if (upload.files.length > 1) throw errors.validation('Send at most one reference file.');
        const [file] = upload.files;
        release = conversion.gate.enter(user.id);
        // Every check that needs no parsing (the Voice, the balance) comes before the file is read.
        prepared = await content.prepareQuick(caller, {
          prompt: fields.prompt,
          format: fields.format,
          voiceId: fields.selectedLora,
          reference: file
            ? async () => {
                try {
                  return (
                    await extractTrainingText({ name: file.name, data: await readFile(file.path) }, { owner: user.id })
                  ).text;
                } catch (error) {
                  if (error instanceof TextExtractionError) throw errors.validation(uploadErrorMessage([error]));
                  throw error;
                }
              }
            : undefined,
        });
      } catch (error) {
        release();
        throw error;
      } finally {
        await rm(upload.dir, { recursive: true, force: true });
      }
      try {
        await sendEventStream(request, reply, (signal) => prepared.events(signal), 'Failed to generate content', {
          stallMs: conversion.gate.limits.stallMs,
          // The events settled the charge as they ended: the last one says what it was.
          errorEvent: (failure) => ({ type: 'error', ...failure, charged: prepared.charged() }),
        });
      } finally {
        release();
      }
    },
  );

  app.withTypeProvider<ZodTypeProvider>().post(
    '/content/interactive/next',
    {
      schema: {
        body: interactiveNextRequestSchema,
        response: { 200: interactiveNextResponseSchema, ...errorResponses, 503: apiErrorBodySchema },
      },
      onRequest: app.requireUser,
      config: { apiKey: 'create' },
    },
    async (request, reply) => {
      const caller = authOf(request);
      requireConvertAndCreate(caller.user);
      const signal = clientGoneSignal(reply);
      const release = conversion.gate.enter(caller.user.id);
      try {
        return { state: await interactive.next(caller, request.body.state, request.body.action, signal) };
      } finally {
        release();
      }
    },
  );
}
