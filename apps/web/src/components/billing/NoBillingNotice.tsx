// A server without payments (self-hosted): nothing is sold, usage comes from its configuration.
import { Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import type { ReactNode } from 'react';

export function NoBillingNotice({ actions }: { actions?: ReactNode }) {
  return (
    <Card py={40} data-testid="billing-disabled">
      <Stack align="center" ta="center" gap="md" maw={560} mx="auto">
        <ThemeIcon size={64} radius="xl" variant="light">
          <IconServer size={32} />
        </ThemeIcon>
        <Title order={2} fz="xl">
          No plans to buy on this server
        </Title>
        <Text c="dimmed">
          This server does not take payments. Your usage comes from its configuration: ask whoever runs it for more.
          Your account page shows what you have left.
        </Text>
        {actions}
      </Stack>
    </Card>
  );
}
