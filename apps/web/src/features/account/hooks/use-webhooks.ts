// The webhooks card's state: the list, adding an endpoint with the password again and removing one
// (use-credentials.ts), and each endpoint's deliveries with a replay.
import type { CreatedWebhook, WebhookEndpoint } from '@ownvoice/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type WebhookInput, webhookBody } from '../credential-change';
import {
  createWebhook,
  fetchWebhookDeliveries,
  fetchWebhooks,
  removeWebhook,
  replayWebhookDelivery,
} from '../webhooks-api';
import { useCredentials } from './use-credentials';

const WEBHOOKS = ['account', 'webhooks'] as const;
const deliveriesKey = (id: string) => [...WEBHOOKS, id, 'deliveries'] as const;

export const useWebhooks = () =>
  useCredentials<WebhookEndpoint, CreatedWebhook, WebhookInput>({
    queryKey: WEBHOOKS,
    fetch: fetchWebhooks,
    create: ({ input, needsCode }) => createWebhook(webhookBody(input, needsCode)),
    remove: removeWebhook,
  });

/** One endpoint's recent deliveries, read when shown, and a replay that reads them again. */
export function useWebhookDeliveries(id: string) {
  const queryClient = useQueryClient();
  const deliveries = useQuery({
    queryKey: deliveriesKey(id),
    queryFn: ({ signal }) => fetchWebhookDeliveries(id, signal),
  });
  const replay = useMutation({
    mutationFn: (deliveryId: string) => replayWebhookDelivery(id, deliveryId),
    onSettled: () => void queryClient.invalidateQueries({ queryKey: deliveriesKey(id) }),
  });
  return { deliveries, replay };
}
