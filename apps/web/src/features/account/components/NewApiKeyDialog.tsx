// Making an API key: its name, what it may do and its requests a minute, and the password again
// (with a code while two-factor is on), since a key outlives the session that makes it; then its
// secret, shown this once with a way to copy it and an example of its use.
import { Button, Checkbox, Code, Group, NumberInput, PasswordInput, Stack, Text, TextInput } from '@mantine/core';
import {
  API_KEY_MESSAGES,
  API_KEY_NAME_MAX,
  API_KEY_RATE_LIMIT,
  API_KEY_SCOPE_LABELS,
  API_KEY_SCOPES,
  API_KEY_WAKE_LABEL,
  type ApiKeyScope,
  type CreatedApiKey,
  PASSWORD_MAX,
} from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { AuthCodeField } from '../../../components/AuthCodeField';
import { CopyTextButton } from '../../../components/CopyTextButton';
import { useCurrentUser } from '../../../lib/session/session-context';
import type { ApiKeyInput } from '../credential-change';
import { type NewCredentialDialogProps, SecretOnceDialog } from './SecretOnceDialog';

function KeyForm({
  busy,
  needsCode,
  onSubmit,
  onCancel,
}: {
  busy: boolean;
  needsCode: boolean;
  onSubmit: (input: ApiKeyInput) => void;
  onCancel: () => void;
}) {
  const user = useCurrentUser();
  const [name, setName] = useState('');
  // Training (creating Voices, taking packages away) is asked for, not given by default.
  const [scopes, setScopes] = useState<string[]>(API_KEY_SCOPES.filter((scope) => scope !== 'training'));
  const [rate, setRate] = useState<number>(API_KEY_RATE_LIMIT.default);
  const [wakesVoices, setWakesVoices] = useState(true);
  const [currentPassword, setCurrentPassword] = useState('');
  const [code, setCode] = useState('');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit({ name, scopes: scopes as ApiKeyScope[], rateLimitPerMinute: rate, wakesVoices, currentPassword, code });
  };
  return (
    <form onSubmit={submit} noValidate aria-label="New API key">
      <Stack gap="md">
        {/* For password managers: whose password this is (not shown, not read out). */}
        <input type="email" name="username" autoComplete="username" value={user.email} readOnly hidden />
        <TextInput
          label="Name"
          description="Where you will use it, so you know which key to revoke"
          placeholder="My editor"
          value={name}
          maxLength={API_KEY_NAME_MAX}
          onChange={(e) => setName(e.currentTarget.value)}
          data-autofocus
          data-testid="api-key-name"
        />
        <Checkbox.Group label="It may" value={scopes} onChange={setScopes}>
          <Stack gap={6} mt={6}>
            {API_KEY_SCOPES.map((scope) => (
              <Checkbox
                key={scope}
                value={scope}
                label={API_KEY_SCOPE_LABELS[scope]}
                data-testid={`api-key-scope-${scope}`}
              />
            ))}
          </Stack>
        </Checkbox.Group>
        <Checkbox
          label={API_KEY_WAKE_LABEL}
          description="Otherwise a tool gets an error while the Voice sleeps, until you wake it on the dashboard"
          checked={wakesVoices}
          onChange={(event) => setWakesVoices(event.currentTarget.checked)}
          data-testid="api-key-wakes"
        />
        <NumberInput
          label="Requests a minute"
          description="This key's own limit; your other keys and your sessions are not affected"
          min={API_KEY_RATE_LIMIT.min}
          max={API_KEY_RATE_LIMIT.max}
          value={rate}
          onChange={(value) => setRate(typeof value === 'number' ? value : API_KEY_RATE_LIMIT.default)}
          allowDecimal={false}
        />
        <PasswordInput
          label="Your password"
          description={API_KEY_MESSAGES.passwordWhy}
          name="currentPassword"
          autoComplete="current-password"
          value={currentPassword}
          maxLength={PASSWORD_MAX}
          onChange={(event) => setCurrentPassword(event.currentTarget.value)}
          data-testid="api-key-password"
        />
        {needsCode && <AuthCodeField value={code} onChange={setCode} />}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={busy} data-testid="api-key-create">
            Create key
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function ShownOnce({ created, onDone }: { created: CreatedApiKey; onDone: () => void }) {
  const example = `curl -H "Authorization: Bearer ${created.secret}" ${window.location.origin}/api/loras`;
  return (
    <Stack gap="md">
      <Text fz="sm" fw={600}>
        Copy your key now: it will not be shown again.
      </Text>
      <Group gap="xs" wrap="nowrap" align="center">
        <TextInput
          aria-label="Your new API key"
          value={created.secret}
          readOnly
          style={{ flex: 1 }}
          styles={{ input: { fontFamily: 'monospace' } }}
          data-testid="api-key-secret"
        />
        <CopyTextButton value={created.secret} testId="api-key-copy" />
      </Group>
      <Text fz="sm" c="dimmed">
        Send it as a bearer token. For example, to list your Voices:
      </Text>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {example}
      </Code>
      <Group justify="flex-end">
        <Button onClick={onDone} data-testid="api-key-done">
          Done
        </Button>
      </Group>
    </Stack>
  );
}

export function NewApiKeyDialog({
  opened,
  busy,
  needsCode,
  error,
  created,
  onSubmit,
  onClose,
}: NewCredentialDialogProps<CreatedApiKey, ApiKeyInput>) {
  return (
    <SecretOnceDialog
      opened={opened}
      showingSecret={created !== null}
      title={created ? `Your key "${created.key.name}"` : 'New API key'}
      error={error}
      onClose={onClose}
      testId="api-key-dialog"
    >
      {created ? (
        <ShownOnce created={created} onDone={onClose} />
      ) : (
        <KeyForm busy={busy} needsCode={needsCode} onSubmit={onSubmit} onCancel={onClose} />
      )}
    </SecretOnceDialog>
  );
}
