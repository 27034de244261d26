// The webhooks card's calls: the account's endpoints, adding one (with the password again),
// removing one, and each endpoint's recent deliveries with a replay.
import {
  type CreatedWebhook,
  type CreateWebhookRequest,
  createdWebhookSchema,
  okResponseSchema,
  type WebhookDelivery,
  type WebhookEndpoint,
  webhookDeliveryListSchema,
  webhookDeliverySchema,
  webhookListSchema,
} from '@ownvoice/shared';
import { api } from '../../lib/api';

const WEBHOOKS = '/auth/webhooks';
const one = (id: string) => `${WEBHOOKS}/${encodeURIComponent(id)}`;

export const fetchWebhooks = async (signal?: AbortSignal): Promise<WebhookEndpoint[]> =>
  (await api.get(WEBHOOKS, { schema: webhookListSchema, ...(signal ? { signal } : {}) })).webhooks;

/** Answers the endpoint with its signing secret, which the server never shows again. */
export const createWebhook = (body: CreateWebhookRequest): Promise<CreatedWebhook> =>
  api.post(WEBHOOKS, body, { schema: createdWebhookSchema });

export const removeWebhook = async (id: string): Promise<void> => {
  await api.request(one(id), { method: 'DELETE', schema: okResponseSchema });
};

export const fetchWebhookDeliveries = async (id: string, signal?: AbortSignal): Promise<WebhookDelivery[]> =>
  (await api.get(`${one(id)}/deliveries`, { schema: webhookDeliveryListSchema, ...(signal ? { signal } : {}) }))
    .deliveries;

export const replayWebhookDelivery = (id: string, deliveryId: string): Promise<WebhookDelivery> =>
  api.post(`${one(id)}/deliveries/${encodeURIComponent(deliveryId)}/replay`, {}, { schema: webhookDeliverySchema });
