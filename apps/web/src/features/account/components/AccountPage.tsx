// /dashboard/account: account info with the role badge and Delete Account, the address (confirmed
// or not, and changing it), the password, two-factor settings, recent security events, the
// subscription, usage limits and the e-mail notices. The user is re-read on arrival so limits,
// two-factor and the address show what the server has now.
import { Alert, Card, Group, SimpleGrid, Stack, Title } from '@mantine/core';
import { ACCOUNT_MESSAGES, isAdminRole, MFA_MESSAGES } from '@ownvoice/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useEffect, useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { Page } from '../../../components/Page';
import { RoleBadge } from '../../../components/RoleBadge';
import { formatDate } from '../../../lib/format';
import { useCurrentUser, useSession } from '../../../lib/session/session-context';
import { AccountField } from './AccountField';
import { ApiKeysCard } from './ApiKeysCard';
import { DeleteAccountButton } from './DeleteAccountButton';
import { EmailCard } from './EmailCard';
import { NoticesCard } from './NoticesCard';
import { PasswordCard } from './PasswordCard';
import { SecurityEventsCard } from './SecurityEventsCard';
import { SubscriptionCard } from './SubscriptionCard';
import { TwoFactorCard } from './TwoFactorCard';
import { UsageHistory } from './UsageHistory';
import { UsageLimitsCard } from './UsageLimitsCard';
import { WebhooksCard } from './WebhooksCard';

export function AccountPage() {
  const user = useCurrentUser();
  const { refresh } = useSession();
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    refresh().catch(() => setError(ACCOUNT_MESSAGES.loadFailed));
  }, [refresh]);

  return (
    <Page title="Account" description="Your profile, subscription, usage and security settings.">
      <ErrorAlert message={error} onClose={() => setError(null)} />
      {isAdminRole(user.role) && !user.mfaEnabled && (
        <Alert
          color="orange"
          icon={<IconAlertTriangle size={20} />}
          title={MFA_MESSAGES.adminRequired}
          data-testid="admin-mfa-warning"
        >
          As an admin, {MFA_MESSAGES.adminRequiredDetail}.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Stack gap="lg">
          <Card data-testid="account-info">
            <Title order={2} fz="lg" mb="sm">
              Account information
            </Title>
            <AccountField label="Username">{user.username}</AccountField>
            <AccountField label="Role">
              <RoleBadge role={user.role} />
            </AccountField>
            <AccountField label="Member since">{formatDate(user.createdAt)}</AccountField>
            <Group justify="flex-end" mt="md">
              <DeleteAccountButton />
            </Group>
          </Card>
          <EmailCard />
          <PasswordCard />
          <TwoFactorCard />
          <SecurityEventsCard />
        </Stack>
        <Stack gap="lg">
          <SubscriptionCard user={user} onError={setError} />
          <UsageLimitsCard limits={user.usageLimits} />
          <UsageHistory />
          <NoticesCard />
          <ApiKeysCard />
          <WebhooksCard />
        </Stack>
      </SimpleGrid>
    </Page>
  );
}
