// /dashboard/account: who is signed in. Subscription, usage and two-factor settings arrive with
// billing and MFA in later releases.
import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { isAdminRole, type User } from '@ownvoice/shared';
import { IconAlertTriangle, IconCreditCard, IconShieldLock } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useCurrentUser } from '../../../app/session/session-context';
import { Page } from '../../../components/Page';
import { RoleBadge } from '../../../components/RoleBadge';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" py={10} style={{ borderBottom: '1px solid var(--mantine-color-gray-2)' }}>
      <Text c="dimmed" fz="sm">
        {label}
      </Text>
      <Text fw={600} fz="sm" component="div" style={{ wordBreak: 'break-all' }}>
        {children}
      </Text>
    </Group>
  );
}

const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString(undefined, { year: 'numeric', month: 'long', day: 'numeric' });

function planLabel(user: User): string {
  const { name, billingCycle } = user.plan;
  if (name === 'none') return 'No plan yet';
  const plan = name.charAt(0).toUpperCase() + name.slice(1);
  return billingCycle ? `${plan} (${billingCycle})` : plan;
}

export function AccountPage() {
  const user = useCurrentUser();
  return (
    <Page title="Account" description="Your profile, subscription and security settings.">
      {isAdminRole(user.role) && !user.mfaEnabled && (
        <Alert color="orange" icon={<IconAlertTriangle size={20} />} title="MFA is REQUIRED for admin accounts">
          As an admin, you must enable MFA before you can access admin functions.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card data-testid="account-info">
          <Title order={2} fz="lg" mb="sm">
            Account information
          </Title>
          <Field label="Username">{user.username}</Field>
          <Field label="E-mail">{user.email}</Field>
          <Field label="Role">
            <RoleBadge role={user.role} />
          </Field>
          <Field label="Member since">{formatDate(user.createdAt)}</Field>
        </Card>
        <Stack gap="lg">
          <Card>
            <Group gap="xs" mb="sm">
              <IconCreditCard size={20} aria-hidden="true" />
              <Title order={2} fz="lg">
                Subscription
              </Title>
            </Group>
            <Field label="Current plan">{planLabel(user)}</Field>
            <Text fz="sm" c="dimmed" mt="sm">
              Managing your subscription and usage limits arrives with billing.
            </Text>
          </Card>
          <Card>
            <Group gap="xs" mb="sm">
              <IconShieldLock size={20} aria-hidden="true" />
              <Title order={2} fz="lg">
                Two-factor authentication
              </Title>
            </Group>
            <Group gap="xs">
              <Badge color={user.mfaEnabled ? 'teal' : 'gray'}>{user.mfaEnabled ? 'Enabled' : 'Not enabled'}</Badge>
            </Group>
            <Text fz="sm" c="dimmed" mt="sm">
              Setting up an authenticator app from this page is coming soon.
            </Text>
          </Card>
        </Stack>
      </SimpleGrid>
    </Page>
  );
}
