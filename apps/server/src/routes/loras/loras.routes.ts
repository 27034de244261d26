// /api/loras: thin handlers over the Voice services; ownership rules live in policies/.
import { rm } from 'node:fs/promises';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { uploadsTempDir } from '../../data-folder.js';
import { errors } from '../../errors.js';
import { authOf } from '../../plugins/authenticate.js';
import type { Services } from '../../services/index.js';
import { countFileCharacters } from '../../services/training-input.js';
import {
  activationSchema,
  cancelTrainingSchema,
  countCharactersSchema,
  createSchema,
  deleteSchema,
  forkSchema,
  getSchema,
  listSchema,
  patchSchema,
  trainingEventsSchema,
} from './loras.schemas.js';
import { FORMS, receiveVoiceUpload } from './voice-upload.js';

export async function lorasRoutes(
  app: FastifyInstance,
  { voices, voiceCreation, activation, trainingControl }: Services,
  { dataDir }: { dataDir: string },
): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const auth = { onRequest: app.requireUser };
  const uploadsTmp = uploadsTempDir(dataDir);

  // API keys with 'voices:read' may list and read Voices (plugins/authenticate.ts); one with
  // 'training' creates a Voice, follows its training (reads it) and cancels it.
  const readable = { ...auth, config: { apiKey: 'voices:read' as const } };
  const training = { ...auth, config: { apiKey: 'training' as const } };
  const readableOrTraining = { ...auth, config: { apiKey: ['voices:read', 'training'] as const } };
  r.get('/loras', { schema: listSchema, ...readable }, async (request) => voices.listOwn(authOf(request).user));

  r.get('/loras/public', { schema: listSchema, ...auth }, async (request) => voices.listPublic(authOf(request).user));

  r.post('/loras', { schema: createSchema, ...training }, async (request, reply) => {
    const upload = await receiveVoiceUpload(request, uploadsTmp, FORMS.createVoice);
    return reply.status(201).send(await voiceCreation.createFromUpload(authOf(request).user, upload));
  });

  r.post('/loras/count-characters', { schema: countCharactersSchema, ...auth }, async (request) => {
    const upload = await receiveVoiceUpload(request, uploadsTmp, FORMS.countCharacters);
    try {
      const [file] = upload.files;
      if (!file || upload.files.length > 1) throw errors.validation('Send exactly one file, in the field "file".');
      return { name: file.name, characters: await countFileCharacters(file, authOf(request).user.id) };
    } finally {
      await rm(upload.dir, { recursive: true, force: true });
    }
  });

  r.get('/loras/:id', { schema: getSchema, ...readableOrTraining }, async (request) =>
    voices.get(authOf(request).user, request.params.id),
  );

  r.get('/loras/:id/training-events', { schema: trainingEventsSchema, ...readableOrTraining }, async (request) =>
    trainingControl.listEvents(authOf(request).user, request.params.id),
  );

  r.post('/loras/:id/cancel-training', { schema: cancelTrainingSchema, ...training }, async (request) =>
    trainingControl.cancel(authOf(request).user, request.params.id),
  );

  r.patch('/loras/:id', { schema: patchSchema, ...auth }, async (request) =>
    voices.update(authOf(request).user, request.params.id, request.body),
  );

  r.delete('/loras/:id', { schema: deleteSchema, ...auth }, async (request) => {
    await voices.delete(authOf(request).user, request.params.id);
    return { ok: true as const };
  });

  r.post('/loras/:id/activate', { schema: activationSchema, ...auth }, async (request) =>
    activation.activate(authOf(request).user, request.params.id),
  );

  r.post('/loras/:id/deactivate', { schema: activationSchema, ...auth }, async (request) =>
    activation.deactivate(authOf(request).user, request.params.id),
  );

  r.post('/loras/:id/fork', { schema: forkSchema, ...auth }, async (request, reply) =>
    reply.status(201).send(await voices.fork(authOf(request).user, request.params.id)),
  );
}
