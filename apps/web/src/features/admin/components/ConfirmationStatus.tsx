// The confirmed window a right code opened: while it lasts the console's actions need no other
// code, so it says so with the time left, and lets the admin end it at once.
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { endConfirmation } from '../api';
import { ADMIN_QUERY_KEY, useConfirmation } from '../hooks/use-admin-data';

/** "4:05": minutes and seconds left. */
const clockOf = (ms: number): string => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

export function ConfirmationStatus() {
  const { data } = useConfirmation();
  const queryClient = useQueryClient();
  const until = data?.confirmedUntil ? Date.parse(data.confirmedUntil) : null;
  const [now, setNow] = useState(() => Date.now());
  // A window that opens later than this component mounted would otherwise count from the stale
  // mount time for a second ("5:05"); the clock restarts whenever the window does.
  useEffect(() => {
    if (until === null) return;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [until]);
  const open = until !== null && until > now;

  if (!open || until === null) return null;
  const end = async () => {
    await endConfirmation().catch(() => undefined);
    await queryClient.invalidateQueries({ queryKey: [...ADMIN_QUERY_KEY, 'confirmation'] });
  };
  return (
    <Alert color="teal" variant="light" icon={<IconShieldCheck size={20} />} mb="md" data-testid="admin-confirmed">
      <Group justify="space-between" gap="sm">
        <Text fz="sm">
          Confirmed with your code: changes need no other code for{' '}
          <Text span fw={700} data-testid="admin-confirmed-left">
            {clockOf(until - now)}
          </Text>
          .
        </Text>
        <Button size="compact-sm" variant="subtle" color="teal" onClick={() => void end()}>
          End now
        </Button>
      </Group>
    </Alert>
  );
}
