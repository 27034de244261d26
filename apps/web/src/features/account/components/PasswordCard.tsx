// The account's password: "Change password" asks for the current one, the new one twice and,
// while two-factor is on, a code. Every other session is signed out; this one stays. The API keys
// that still work are named afterwards: a change leaves them working, a reset revokes them.
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import type { ApiKey } from '@ownvoice/shared';
import { IconCircleCheck, IconKey } from '@tabler/icons-react';
import { useChangePassword } from '../hooks/use-change-password';
import { ChangePasswordDialog } from './ChangePasswordDialog';

/** "Your API keys still work": each by name and the start of its secret, and what to do about one. */
function KeptKeys({ keys }: { keys: ApiKey[] }) {
  if (keys.length === 0) return null;
  return (
    <Alert
      color="yellow"
      icon={<IconKey size={20} />}
      title="Your API keys still work"
      data-testid="password-changed-keys"
    >
      <Text fz="sm">
        A new password does not stop them:{' '}
        {keys.map((key, i) => (
          <span key={key.id}>
            {i > 0 && ', '}“{key.name}” ({key.shown})
          </span>
        ))}
        . If you did not make one of them, revoke it under API keys on this page.
      </Text>
    </Alert>
  );
}

export function PasswordCard() {
  const change = useChangePassword();
  return (
    <Card data-testid="password-card">
      <Group gap="xs" mb="sm">
        <IconKey size={20} aria-hidden="true" />
        <Title order={2} fz="lg">
          Password
        </Title>
      </Group>
      <Stack gap="sm">
        <Text fz="sm" c="dimmed">
          Changing it signs out every other browser and device; you stay signed in here.
        </Text>
        {change.done && (
          <Alert
            color="teal"
            icon={<IconCircleCheck size={20} />}
            role="status"
            withCloseButton
            onClose={change.clearDone}
            closeButtonLabel="Dismiss"
            data-testid="password-changed"
          >
            {change.done}
          </Alert>
        )}
        {change.done && <KeptKeys keys={change.keptKeys} />}
        <Group>
          <Button variant="default" onClick={change.start}>
            Change password
          </Button>
        </Group>
      </Stack>
      <ChangePasswordDialog change={change} />
    </Card>
  );
}
