// One webhook endpoint's recent deliveries: what was sent, how its attempts went, and a Replay
// that sends it again now.
import { Badge, Button, Center, Group, Loader, Stack, Text } from '@mantine/core';
import { WEBHOOK_EVENT_LABELS, type WebhookDelivery } from '@ownvoice/shared';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useWebhookDeliveries } from '../hooks/use-webhooks';

function outcome(d: WebhookDelivery): { label: string; color: string } {
  if (d.deliveredAt) return { label: 'Delivered', color: 'green' };
  if (d.nextAttemptAt) return { label: d.attempts === 0 ? 'Sending' : 'Retrying', color: 'yellow' };
  return { label: 'Failed', color: 'red' };
}

export function WebhookDeliveries({ webhookId }: { webhookId: string }) {
  const { deliveries, replay } = useWebhookDeliveries(webhookId);
  if (deliveries.isPending) {
    return (
      <Center py="xs">
        <Loader size="xs" aria-label="Loading deliveries" />
      </Center>
    );
  }
  if (deliveries.isError)
    return <ErrorAlert message={errorMessage(deliveries.error, 'Failed to load the deliveries')} />;
  if (deliveries.data.length === 0) {
    return (
      <Text fz="xs" c="dimmed">
        Nothing sent yet: a delivery goes out when a training ends.
      </Text>
    );
  }
  return (
    <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Recent deliveries">
      <ErrorAlert message={replay.error ? errorMessage(replay.error, 'The delivery was not sent again') : null} />
      {deliveries.data.map((d) => {
        const { label, color } = outcome(d);
        return (
          <li key={d.id} data-testid="webhook-delivery">
            <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
              <Stack gap={0}>
                <Group gap={4}>
                  <Badge size="xs" variant="light" color={color}>
                    {label}
                  </Badge>
                  <Text fz="xs">{WEBHOOK_EVENT_LABELS[d.type]}</Text>
                </Group>
                <Text fz="xs" c="dimmed">
                  {formatDateTime(d.createdAt)} · {d.attempts} {d.attempts === 1 ? 'attempt' : 'attempts'}
                  {d.lastStatus !== null && ` · last answer ${d.lastStatus}`}
                  {d.nextAttemptAt && !d.deliveredAt && ` · next try ${formatDateTime(d.nextAttemptAt)}`}
                </Text>
                {d.lastError && !d.deliveredAt && (
                  <Text fz="xs" c="red">
                    {d.lastError}
                  </Text>
                )}
              </Stack>
              <Button
                size="compact-xs"
                variant="subtle"
                loading={replay.isPending && replay.variables === d.id}
                onClick={() => replay.mutate(d.id)}
                aria-label={`Replay the delivery of ${formatDateTime(d.createdAt)}`}
              >
                Replay
              </Button>
            </Group>
          </li>
        );
      })}
    </Stack>
  );
}
