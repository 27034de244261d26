// The webhooks card: the list, adding an endpoint with the password again (its secret kept here
// until the person closes the dialog that shows it, never stored), removing one after a
// confirmation, and replaying a delivery.
import type { CreatedWebhook, WebhookEndpoint } from '@ownvoice/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type WebhookInput, webhookBody } from '../credential-change';
import {
  createWebhook,
  fetchWebhookDeliveries,
  fetchWebhooks,
  removeWebhook,
  replayWebhookDelivery,
} from '../webhooks-api';

const WEBHOOKS = ['account', 'webhooks'] as const;
const deliveriesKey = (id: string) => [...WEBHOOKS, id, 'deliveries'] as const;

export function useWebhooks() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: WEBHOOKS, queryFn: ({ signal }) => fetchWebhooks(signal) });
  const [created, setCreated] = useState<CreatedWebhook | null>(null);
  const [removing, setRemoving] = useState<WebhookEndpoint | null>(null);

  const create = useMutation({
    // A broken form rule is thrown as a FormError before anything is sent.
    mutationFn: ({ input, needsCode }: { input: WebhookInput; needsCode: boolean }) =>
      createWebhook(webhookBody(input, needsCode)),
    onSuccess: (answer) => {
      setCreated(answer);
      void queryClient.invalidateQueries({ queryKey: WEBHOOKS });
    },
  });
  const remove = useMutation({
    mutationFn: (id: string) => removeWebhook(id),
    onSettled: () => {
      setRemoving(null);
      void queryClient.invalidateQueries({ queryKey: WEBHOOKS });
    },
  });

  return {
    list,
    create,
    created,
    dismissCreated: () => {
      setCreated(null);
      create.reset();
    },
    remove,
    removing,
    askRemove: setRemoving,
  };
}

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
