// Virtuoso includes a priority support call: the dashboard offers the booking link when the
// server returns one, and shows nothing otherwise.
import { Button, Card, Group, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconHeadset } from '@tabler/icons-react';
import { usePrioritySupportLink } from '../../../lib/billing/billing-queries';
import { useCurrentUser } from '../../../lib/session/session-context';

export function PrioritySupportBanner() {
  const user = useCurrentUser();
  const link = usePrioritySupportLink(user.plan.name);
  if (!link) return null;
  return (
    <Card
      padding="md"
      data-testid="priority-support-banner"
      style={{ background: 'linear-gradient(135deg, var(--mantine-color-violet-0), var(--mantine-color-indigo-0))' }}
    >
      <Group justify="space-between" gap="md">
        <Group gap="md" wrap="nowrap">
          <ThemeIcon size={44} radius="md" variant="light">
            <IconHeadset size={24} />
          </ThemeIcon>
          <Stack gap={0}>
            <Text fw={700}>Book your priority support call</Text>
            <Text fz="sm" c="dimmed">
              Included with Virtuoso
            </Text>
          </Stack>
        </Group>
        <Button component="a" href={link} target="_blank" rel="noopener noreferrer" data-testid="priority-support-link">
          Book a call
        </Button>
      </Group>
    </Card>
  );
}
