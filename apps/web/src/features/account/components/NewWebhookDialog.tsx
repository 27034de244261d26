// Adding a webhook endpoint: its address, the events it is told of, and the password again (with a
// code while two-factor is on); then its signing secret, shown this once.
import { Button, Checkbox, Group, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import {
  type CreatedWebhook,
  PASSWORD_MAX,
  WEBHOOK_EVENT_LABELS,
  WEBHOOK_EVENTS,
  WEBHOOK_MESSAGES,
  WEBHOOK_SIGNATURE_HEADER,
  WEBHOOK_URL_MAX,
  type WebhookEventType,
} from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { AuthCodeField } from '../../../components/AuthCodeField';
import { CopyTextButton } from '../../../components/CopyTextButton';
import { useCurrentUser } from '../../../lib/session/session-context';
import type { WebhookInput } from '../credential-change';
import { type NewCredentialDialogProps, SecretOnceDialog } from './SecretOnceDialog';

function WebhookForm({
  busy,
  needsCode,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  needsCode: boolean;
  onSubmit: (input: WebhookInput) => void;
  onCancel: () => void;
}) {
  const user = useCurrentUser();
  const [url, setUrl] = useState('');
  const [events, setEvents] = useState<string[]>([...WEBHOOK_EVENTS]);
  const [currentPassword, setCurrentPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ url, events: events as WebhookEventType[], currentPassword, code });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New webhook">
      <Stack gap="md">
        {/* For password managers: whose password this is (not shown, not read out). */}
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <TextInput
          label="Endpoint URL"
          description="Where OwnVoice POSTs the event, signed"
          placeholder="https://example.com/ownvoice-webhook"
          value={url}
          maxLength={WEBHOOK_URL_MAX}
          onChange={(e) => setUrl(e.currentTarget.value)}
          data-autofocus
        />
        <Checkbox.Group label="Tell it when" value={events} onChange={setEvents}>
          <Stack gap={6} mt={6}>
            {WEBHOOK_EVENTS.map((type) => (
              <Checkbox key={type} value={type} label={WEBHOOK_EVENT_LABELS[type]} />
            ))}
          </Stack>
        </Checkbox.Group>
        <PasswordInput
          label="Your password"
          description={WEBHOOK_MESSAGES.passwordWhy}
          name="currentPassword"
          autoComplete="current-password"
          value={currentPassword}
          maxLength={PASSWORD_MAX}
          onChange={(event) => setCurrentPassword(event.currentTarget.value)}
        />
        {needsCode && <AuthCodeField value={code} onChange={setCode} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy}>
            Add webhook
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SecretShownOnce({ created, onDone }: { created: CreatedWebhook; onDone: () => void }) {
  return (
    <Stack gap="md">
      <Text fz="sm" fw={600}>
        Copy the signing secret now: it will not be shown again.
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <TextInput
          aria-label="Your webhook's signing secret"
          value={created.secret}
          readOnly
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'monospace' } }}
        />
        <CopyTextButton value={created.secret} testId="webhook-copy" />
      </Group>
      <Text fz="sm" c="dimmed">
        Each delivery carries a {WEBHOOK_SIGNATURE_HEADER} header, signed with it as Stripe signs its webhooks; the API
        reference shows how to check it.
      </Text>
      <Group justify="flex-end">
        <Button onClick={onDone}>Done</Button>
      </Group>
    </Stack>
  );
}

export function NewWebhookDialog({
  opened,
  busy,
  needsCode,
  error,
  created,
  onSubmit,
  onClose,
}: NewCredentialDialogProps<CreatedWebhook, WebhookInput>) {
  return (
    <SecretOnceDialog
      opened={opened}
      showingSecret={created !== null}
      title={created ? 'Your new webhook' : 'New webhook'}
      error={error}
      onClose={onClose}
    >
      {created ? (
        <SecretShownOnce created={created} onDone={onClose} />
      ) : (
        <WebhookForm busy={busy} needsCode={needsCode} onSubmit={onSubmit} onCancel={onClose} />
      )}
    </SecretOnceDialog>
  );
}
