// Webhooks: the account's endpoints told, by a signed POST, when a training ends (decision 46).
// Like API keys: adding one needs a confirmed address and the password again; the signing secret
// is shown once. Each endpoint shows its recent deliveries, with a Replay.
import { Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { WEBHOOK_EVENT_LABELS, WEBHOOKS_MAX, type WebhookEndpoint } from '@ownvoice/shared';
import { IconPlus, IconWebhook } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useCurrentUser } from '../../../lib/session/session-context';
import { submitErrorMessage } from '../../../lib/use-submit';
import { asksForCode } from '../credential-change';
import { useWebhooks } from '../hooks/use-webhooks';
import { NewWebhookDialog } from './NewWebhookDialog';
import { WebhookDeliveries } from './WebhookDeliveries';

function WebhookRow({ webhook, onRemove }: { webhook: WebhookEndpoint; onRemove: () => void }) {
  const [showing, setShowing] = useState(false);
  return (
    <li data-testid="webhook-row">
      <Stack gap={4}>
        <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Text fz="sm" fw={600} style={{ wordBreak: 'break-all' }}>
              {webhook.url}
            </Text>
            <Group gap={4}>
              {webhook.events.map((type) => (
                <Badge key={type} size="sm" variant="light">
                  {WEBHOOK_EVENT_LABELS[type]}
                </Badge>
              ))}
            </Group>
          </Stack>
          <Group gap={4} wrap="nowrap">
            <Button size="compact-sm" variant="subtle" onClick={() => setShowing((s) => !s)} aria-expanded={showing}>
              {showing ? 'Hide deliveries' : 'Deliveries'}
            </Button>
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              onClick={onRemove}
              aria-label={`Remove ${webhook.url}`}
            >
              Remove
            </Button>
          </Group>
        </Group>
        {showing && <WebhookDeliveries webhookId={webhook.id} />}
      </Stack>
    </li>
  );
}

export function WebhooksCard() {
  const user = useCurrentUser();
  const hooks = useWebhooks();
  const [adding, setAdding] = useState(false);
  const full = (hooks.list.data?.length ?? 0) >= WEBHOOKS_MAX;
  const needsCode = user.mfaEnabled || asksForCode(hooks.create.error);
  const closeDialog = () => {
    setAdding(false);
    hooks.dismissCreated();
  };
  return (
    <Card data-testid="webhooks-card">
      <Group justify="space-between" gap="xs" mb="sm">
        <Group gap="xs">
          <IconWebhook size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            Webhooks
          </Title>
        </Group>
        <Button
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={() => setAdding(true)}
          disabled={full || !user.emailVerified}
        >
          New webhook
        </Button>
      </Group>
      <Text fz="sm" c="dimmed" mb="sm">
        Have your own server told when a Voice's training succeeds, fails or is cancelled, instead of asking.
        {full && ` You have ${WEBHOOKS_MAX} webhooks, the most there can be: remove one to add another.`}
        {!user.emailVerified && ' Confirm your address first (see E-mail address).'}
      </Text>
      <ErrorAlert
        message={hooks.remove.error ? errorMessage(hooks.remove.error, 'The webhook was not removed') : null}
      />
      {hooks.list.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading webhooks" />
        </Center>
      ) : hooks.list.isError ? (
        <ErrorAlert message={errorMessage(hooks.list.error, 'Failed to load your webhooks')} />
      ) : hooks.list.data.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No webhooks yet.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {hooks.list.data.map((webhook) => (
            <WebhookRow key={webhook.id} webhook={webhook} onRemove={() => hooks.askRemove(webhook)} />
          ))}
        </Stack>
      )}
      <NewWebhookDialog
        opened={adding}
        busy={hooks.create.isPending}
        needsCode={needsCode}
        error={hooks.create.error ? submitErrorMessage(hooks.create.error, 'The webhook was not added') : null}
        created={hooks.created}
        onSubmit={(input) => hooks.create.mutate({ input, needsCode })}
        onClose={closeDialog}
      />
      <ConfirmDialog
        opened={hooks.removing !== null}
        title="Remove this webhook?"
        confirmLabel="Remove webhook"
        danger
        onConfirm={() => hooks.removing && hooks.remove.mutate(hooks.removing.id)}
        onCancel={() => hooks.askRemove(null)}
      >
        {`${hooks.removing?.url ?? ''} will not be told of trainings any more, and its delivery log goes with it.`}
      </ConfirmDialog>
    </Card>
  );
}
