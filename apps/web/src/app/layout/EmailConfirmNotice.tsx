// The slim notice under the beta banner while the signed-in address is not confirmed: where the
// link went, and "Send again". Nothing waits for it but the trial and admin invitations, so it
// can be closed for this browser session. See email-notice.ts for where it shows.
import { Box, CloseButton, Group, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { useState } from 'react';
import { useLocation } from 'react-router';
import { ResendConfirmationButton } from '../../components/ResendConfirmationButton';
import { browserSessionStore } from '../../lib/billing/session-store';
import { useSession } from '../../lib/session/session-context';
import { closeEmailNotice, isEmailNoticeClosed, showsEmailNotice } from './email-notice';

export function EmailConfirmNotice() {
  const { user } = useSession();
  const { pathname } = useLocation();
  const [closedHere, setClosedHere] = useState<string | null>(null);
  const closed = user !== null && (closedHere === user.id || isEmailNoticeClosed(browserSessionStore(), user.id));
  if (!user || !showsEmailNotice(user, pathname, closed)) return null;

  const close = () => {
    closeEmailNotice(browserSessionStore(), user.id);
    setClosedHere(user.id);
  };

  return (
    <Box
      component="aside"
      aria-label="Address not confirmed"
      bg="var(--mantine-color-orange-light)"
      c="var(--mantine-color-orange-light-color)"
      px="md"
      py={6}
      data-testid="email-confirm-notice"
    >
      <Group justify="center" gap="xs" wrap="nowrap">
        <Group justify="center" gap="xs" wrap="wrap" style={{ flex: 1 }}>
          <Text fz="sm" ta="center">
            <IconMailExclamation size={16} style={{ verticalAlign: '-3px', marginRight: 6 }} aria-hidden="true" />
            <Text span fw={700}>
              Confirm your address:
            </Text>{' '}
            we sent a link to {user.email}.
          </Text>
          <ResendConfirmationButton color="orange" variant="outline" size="compact-xs" />
        </Group>
        <CloseButton size="sm" aria-label="Hide this notice for now" onClick={close} c="inherit" />
      </Group>
    </Box>
  );
}
