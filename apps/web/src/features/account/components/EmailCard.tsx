// The account's address: confirmed or not (with "Send the link again" while not), a new address
// waiting for its link, and "Change address", which sends a link to the new one first.
import { Alert, Badge, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { EMAIL_LINK_HOURS } from '@ownvoice/shared';
import { IconMail, IconMailForward } from '@tabler/icons-react';
import { ResendConfirmationButton } from '../../../components/ResendConfirmationButton';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useChangeEmail } from '../hooks/use-change-email';
import { ChangeEmailDialog } from './ChangeEmailDialog';

export function EmailCard() {
  const user = useCurrentUser();
  const change = useChangeEmail();

  return (
    <Card data-testid="email-card">
      <Group gap="xs" mb="sm">
        <IconMail size={20} aria-hidden="true" />
        <Title order={2} fz="lg">
          E-mail address
        </Title>
      </Group>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text fw={600} style={{ wordBreak: 'break-all' }} data-testid="email-address">
            {user.email}
          </Text>
          <Badge color={user.emailVerified ? 'teal' : 'orange'} data-testid="email-status">
            {user.emailVerified ? 'Confirmed' : 'Not confirmed'}
          </Badge>
        </Group>
        {!user.emailVerified && (
          <Stack gap="xs" align="flex-start" data-testid="email-unconfirmed">
            <Text fz="sm" c="dimmed">
              We sent a link to {user.email}. Open it to confirm your address; it works for {EMAIL_LINK_HOURS} hours.
              The trial and admin invitations need a confirmed address.
            </Text>
            <ResendConfirmationButton label="Send the link again" />
          </Stack>
        )}
        {user.pendingEmail ? (
          <Alert color="blue" icon={<IconMailForward size={20} />} role="status" data-testid="email-pending">
            <Text fz="sm">
              Waiting for you to open the link sent to <strong>{user.pendingEmail}</strong>. Until then your address
              stays {user.email}.
            </Text>
            <Text fz="sm" mt={4}>
              Nothing arrived? Check the spam folder, or change the address again for a new link.
            </Text>
          </Alert>
        ) : (
          change.sent && (
            <Alert
              color="teal"
              icon={<IconMailForward size={20} />}
              withCloseButton
              onClose={change.clearSent}
              closeButtonLabel="Dismiss"
              data-testid="email-change-sent"
            >
              {change.sent}
            </Alert>
          )
        )}
        <Group>
          <Button variant="default" onClick={change.start}>
            Change address
          </Button>
        </Group>
      </Stack>
      <ChangeEmailDialog change={change} currentEmail={user.email} />
    </Card>
  );
}
