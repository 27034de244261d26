import { engineStatusSchema } from '@ownvoice/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BaseModelService } from '../../engine/base-model.service.js';

export async function engineRoutes(app: FastifyInstance, baseModel: BaseModelService): Promise<void> {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/public/engine', { schema: { response: { 200: engineStatusSchema } } }, async () => baseModel.status);
}
