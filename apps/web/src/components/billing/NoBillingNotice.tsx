// A server without payments (self-hosted, the offline app): nothing is sold, usage comes from its
// configuration, and a Voice trained on the service can be brought along as a package.
import { Anchor, Card, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconServer } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../../lib/paths';

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
        {/* The offline app's first run: a Voice trained on the service comes along as a package. */}
        <Text fz="sm" c="dimmed" data-testid="bring-a-voice">
          Trained a Voice on the OwnVoice service already? Open it there and choose <b>Download Voice</b>, then{' '}
          <Anchor component={Link} to={PATHS.createVoice} inherit underline="always">
            import the package on the Create Voice page
          </Anchor>{' '}
          here. It needs no training again when both run the same base model.
        </Text>
      </Stack>
    </Card>
  );
}
