// API keys for a person's own tools (editors, scripts): each with its name, the start of its
// secret, what it may do and when it was last used, and a way to revoke it. Making one needs a
// confirmed address and the password again (decision 33).
import { Anchor, Badge, Button, Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { API_KEY_SCOPE_LABELS, API_KEYS_MAX, type ApiKey } from '@ownvoice/shared';
import { IconKey, IconPlus } from '@tabler/icons-react';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { formatDateTime } from '../../../lib/format';
import { useCurrentUser } from '../../../lib/session/session-context';
import { submitErrorMessage } from '../../../lib/use-submit';
import { asksForCode } from '../credential-change';
import { useApiKeys } from '../hooks/use-api-keys';
import { NewApiKeyDialog } from './NewApiKeyDialog';

function KeyRow({ apiKey, onRevoke }: { apiKey: ApiKey; onRevoke: () => void }) {
  return (
    <li data-testid="api-key-row">
      <Group justify="space-between" gap="xs" wrap="nowrap" align="flex-start">
        <Stack gap={2}>
          <Text fz="sm" fw={600}>
            {apiKey.name}{' '}
            <Text span fz="xs" ff="monospace" c="dimmed">
              {apiKey.shown}
            </Text>
          </Text>
          <Group gap={4}>
            {apiKey.scopes.map((scope) => (
              <Badge key={scope} size="sm" variant="light">
                {API_KEY_SCOPE_LABELS[scope]}
              </Badge>
            ))}
            {apiKey.wakesVoices && (
              <Badge size="sm" variant="light" color="grape">
                Wakes sleeping Voices
              </Badge>
            )}
          </Group>
          <Text fz="xs" c="dimmed">
            {apiKey.lastUsedAt ? `Last used ${formatDateTime(apiKey.lastUsedAt)}` : 'Never used'} ·{' '}
            {apiKey.rateLimitPerMinute} requests a minute
          </Text>
        </Stack>
        <Button size="compact-sm" variant="subtle" color="red" onClick={onRevoke} aria-label={`Revoke ${apiKey.name}`}>
          Revoke
        </Button>
      </Group>
    </li>
  );
}

export function ApiKeysCard() {
  const user = useCurrentUser();
  const keys = useApiKeys();
  const [making, setMaking] = useState(false);
  const full = (keys.list.data?.length ?? 0) >= API_KEYS_MAX;
  // Two-factor turned on elsewhere since this page loaded: the server asks for the code.
  const needsCode = user.mfaEnabled || asksForCode(keys.create.error);
  const closeDialog = () => {
    setMaking(false);
    keys.dismissCreated();
  };
  return (
    <Card data-testid="api-keys-card">
      <Group justify="space-between" gap="xs" mb="sm">
        <Group gap="xs">
          <IconKey size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            API keys
          </Title>
        </Group>
        <Button
          size="compact-sm"
          leftSection={<IconPlus size={14} />}
          onClick={() => setMaking(true)}
          disabled={full || !user.emailVerified}
          data-testid="api-key-new"
        >
          New key
        </Button>
      </Group>
      <Text fz="sm" c="dimmed" mb="sm">
        Use your Voices from your own tools. A key can read your Voices, Convert and Create as you, and is charged as
        you are; it cannot reach your account, billing or other keys. How to call it:{' '}
        <Anchor href="/api/docs" td="underline" fz="sm">
          the API reference
        </Anchor>
        .{full && ` You have ${API_KEYS_MAX} keys, the most there can be: revoke one to make another.`}
        {!user.emailVerified &&
          ' Confirm your address first (see E-mail address): a key works until it is revoked, so only a confirmed address gets one.'}
      </Text>
      <ErrorAlert message={keys.remove.error ? errorMessage(keys.remove.error, 'The key was not revoked') : null} />
      {keys.list.isPending ? (
        <Center py="md">
          <Loader size="sm" aria-label="Loading API keys" />
        </Center>
      ) : keys.list.isError ? (
        <ErrorAlert message={errorMessage(keys.list.error, 'Failed to load your API keys')} />
      ) : keys.list.data.length === 0 ? (
        <Text fz="sm" c="dimmed">
          No keys yet.
        </Text>
      ) : (
        <Stack gap="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {keys.list.data.map((apiKey) => (
            <KeyRow key={apiKey.id} apiKey={apiKey} onRevoke={() => keys.askRemove(apiKey)} />
          ))}
        </Stack>
      )}
      <NewApiKeyDialog
        opened={making}
        busy={keys.create.isPending}
        needsCode={needsCode}
        error={keys.create.error ? submitErrorMessage(keys.create.error, 'The key was not created') : null}
        created={keys.created}
        onSubmit={(input) => keys.create.mutate({ input, needsCode })}
        onClose={closeDialog}
      />
      <ConfirmDialog
        opened={keys.removing !== null}
        title="Revoke this key?"
        confirmLabel="Revoke key"
        danger
        onConfirm={() => keys.removing && keys.remove.mutate(keys.removing.id)}
        onCancel={() => keys.askRemove(null)}
      >
        {`Programs using "${keys.removing?.name ?? ''}" will be refused from now on. This cannot be undone.`}
      </ConfirmDialog>
    </Card>
  );
}
