// System overview: user counts, credits in circulation, billing's health, where e-mail goes (and
// what failed), and 30 days of sign-ups, Voices trained and waking hours.
import { Card, Loader, SimpleGrid, Stack, Text } from '@mantine/core';
import { ADMIN_ACTIVE_DAYS } from '@ownvoice/shared';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { chartDays } from '../chart-days';
import { needsMfa, useAdminOverview } from '../hooks/use-admin-data';
import { AdminMfaWarning } from './AdminMfaWarning';
import { BillingCard } from './BillingCard';
import { DailyChart } from './DailyChart';
import { MailCard } from './MailCard';

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
  const days = chartDays(data.daily);
  return (
    <Stack gap="lg">
      <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="md" data-testid="admin-overview">
        <Stat label="Users" value={data.users.total} />
        <Stat label="Admins" value={data.users.admins} />
        <Stat label="Regular users" value={data.users.regular} />
        <Stat label={`Active (${ADMIN_ACTIVE_DAYS} days)`} value={data.users.active} />
        <Stat label="With two-factor" value={data.users.mfaEnabled} />
        <Stat label="Credits in circulation" value={data.credits.total} />
      </SimpleGrid>
      <BillingCard />
      <MailCard />
      <SimpleGrid cols={{ base: 1, md: 3 }} spacing="md" data-testid="admin-charts">
        <DailyChart
          days={days}
          figure="signUps"
          title="Sign-ups per day"
          color="violet.6"
          kind="bar"
          testId="admin-chart-sign-ups"
        />
        <DailyChart
          days={days}
          figure="voicesTrained"
          title="Voices trained per day"
          color="teal.6"
          kind="bar"
          testId="admin-chart-voices-trained"
        />
        <DailyChart
          days={days}
          figure="wakingHours"
          title="Waking hours per day"
          color="orange.6"
          kind="line"
          unit=" h"
          testId="admin-chart-waking-hours"
        />
      </SimpleGrid>
    </Stack>
  );
}
