// The link a new invitation made, to copy and pass on, and when it stops working.
import { Alert, Code, Group, Stack, Text } from '@mantine/core';
import type { InviteResponse } from '@ownvoice/shared';
import { IconMailCheck } from '@tabler/icons-react';
import { CopyTextButton } from '../../../components/CopyTextButton';
import { formatDateTime } from '../../../lib/format';

export function InvitationLinkAlert({ invitation }: { invitation: InviteResponse['data'] }) {
  return (
    <Alert color="teal" icon={<IconMailCheck size={20} />} title="Invitation created" data-testid="invite-result">
      <Stack gap="xs">
        <Text fz="sm" data-testid="invite-mailed">
          {invitation.mailed
            ? 'We e-mailed this link to the invitee. You can also pass it on yourself; it works once.'
            : 'The e-mail to the invitee could not be sent: pass this link on yourself. It works once.'}
        </Text>
        <Group gap="sm" wrap="nowrap" align="center">
          <Code data-testid="invite-url" style={{ wordBreak: 'break-all', flex: 1 }}>
            {invitation.invitationUrl}
          </Code>
          <CopyTextButton value={invitation.invitationUrl} testId="invite-url-copy" />
        </Group>
        <Text fz="sm" c="dimmed" data-testid="invite-expires">
          Expires {formatDateTime(invitation.expiresAt)}
        </Text>
      </Stack>
    </Alert>
  );
}
