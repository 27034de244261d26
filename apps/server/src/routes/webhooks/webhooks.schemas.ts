// Route schemas of /api/auth/webhooks: the rules come from @ownvoice/shared (webhooks.ts).
import {
  apiErrorBodySchema,
  createdWebhookSchema,
  createWebhookRequestSchema,
  okResponseSchema,
  webhookDeliveryListSchema,
  webhookDeliveryParamsSchema,
  webhookDeliverySchema,
  webhookIdParamsSchema,
  webhookListSchema,
} from '@ownvoice/shared';

const errorResponses = { 400: apiErrorBodySchema, 401: apiErrorBodySchema, 403: apiErrorBodySchema };
const notFound = { 404: apiErrorBodySchema };

export const listWebhooksSchema = { response: { 200: webhookListSchema, ...errorResponses } };

export const createWebhookSchema = {
  body: createWebhookRequestSchema,
  response: { 201: createdWebhookSchema, ...errorResponses, 409: apiErrorBodySchema, 429: apiErrorBodySchema },
};

export const removeWebhookSchema = {
  params: webhookIdParamsSchema,
  response: { 200: okResponseSchema, ...errorResponses, ...notFound },
};

export const listDeliveriesSchema = {
  params: webhookIdParamsSchema,
  response: { 200: webhookDeliveryListSchema, ...errorResponses, ...notFound },
};

export const replayDeliverySchema = {
  params: webhookDeliveryParamsSchema,
  response: { 202: webhookDeliverySchema, ...errorResponses, ...notFound },
};
