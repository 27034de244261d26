// The account's latest security events (sign-ins, failed attempts, two-factor changes), so a
// person notices a sign-in that was not theirs.
import { Card, Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { OWN_ACTIVITY_LIMIT } from '@ownvoice/shared';
import { IconShieldCheck } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { activityRow } from '../../../lib/activity';
import { errorMessage } from '../../../lib/api-error';
import { fetchOwnActivities } from '../api';

function EventList() {
  const events = useQuery({ queryKey: ['account', 'activities'], queryFn: ({ signal }) => fetchOwnActivities(signal) });
  if (events.isPending) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Loading security events" />
      </Center>
    );
  }
  if (events.isError) return <ErrorAlert message={errorMessage(events.error, 'Failed to load security events')} />;
  if (events.data.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        Nothing yet.
      </Text>
    );
  }
  return (
    <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
      {events.data.map(activityRow).map((row) => (
        <li key={row.id} data-testid="security-event">
          <Group justify="space-between" gap="xs" wrap="nowrap" align="baseline">
            <Text fz="sm" fw={600}>
              {row.action}
            </Text>
            <Text fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
              {row.date}
            </Text>
          </Group>
          <Text fz="xs" c="dimmed">
            {row.details}
          </Text>
        </li>
      ))}
    </Stack>
  );
}

export function SecurityEventsCard() {
  return (
    <Card data-testid="security-events">
      <Group gap="xs" mb="sm">
        <IconShieldCheck size={20} aria-hidden="true" />
        <Title order={2} fz="lg">
          Recent security events
        </Title>
      </Group>
      <Text fz="xs" c="dimmed" mb="sm">
        Your latest {OWN_ACTIVITY_LIMIT} sign-ins and security changes. Something you do not recognise? Turn on
        two-factor if it is off, and tell us in the community chat.
      </Text>
      <EventList />
    </Card>
  );
}
