// System overview: user counts and credits in circulation.
import { Card, Loader, SimpleGrid, Text } from '@mantine/core';
import { ADMIN_ACTIVE_DAYS } from '@ownvoice/shared';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { needsMfa, useAdminOverview } from '../hooks/use-admin-data';
import { AdminMfaWarning } from './AdminMfaWarning';

function Stat({ label, value }: { label: string; value: number }) {
  return (
    <Card padding="md">
      <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
        {label}
      </Text>
      <Text fz={28} fw={800}>
        {value.toLocaleString()}
      </Text>
    </Card>
  );
}

export function SystemOverview() {
  const { data, error, isPending } = useAdminOverview();
  if (needsMfa(error)) return <AdminMfaWarning />;
  if (error) return <ErrorAlert message={errorMessage(error, 'Failed to load data')} />;
  if (isPending || !data) return <Loader />;
  return (
    <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" data-testid="admin-overview">
      <Stat label="Users" value={data.users.total} />
      <Stat label="Admins" value={data.users.admins} />
      <Stat label="Regular users" value={data.users.regular} />
      <Stat label={`Active (${ADMIN_ACTIVE_DAYS} days)`} value={data.users.active} />
      <Stat label="With two-factor" value={data.users.mfaEnabled} />
      <Stat label="Credits in circulation" value={data.credits.total} />
    </SimpleGrid>
  );
}
