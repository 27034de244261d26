// The account's password: "Change password" asks for the current one, the new one twice and,
// while two-factor is on, a code. Every other session is signed out; this one stays.
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck, IconKey } from '@tabler/icons-react';
import { useChangePassword } from '../hooks/use-change-password';
import { ChangePasswordDialog } from './ChangePasswordDialog';

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
