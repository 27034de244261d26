// The placeholder for screens a later release fills: says plainly what will live here.
import { Badge, Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconLayoutDashboard, IconSparkles } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { PATHS } from '../lib/paths';

const BACK_TO_DASHBOARD = (
  <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconLayoutDashboard size={18} />}>
    Go to Dashboard
  </Button>
);

export interface ComingSoonProps {
  title: string;
  children: ReactNode;
  icon?: ReactNode;
  /** Defaults to a Go to Dashboard button. */
  actions?: ReactNode;
  badge?: string;
}

export function ComingSoon({
  title,
  children,
  icon,
  actions = BACK_TO_DASHBOARD,
  badge = 'Coming soon',
}: ComingSoonProps) {
  return (
    <Card py={48}>
      <Stack align="center" gap="md" maw={560} mx="auto" ta="center">
        <ThemeIcon size={64} radius="xl" variant="light">
          {icon ?? <IconSparkles size={32} />}
        </ThemeIcon>
        <Badge variant="dot">{badge}</Badge>
        <Title order={2} fz={{ base: 22, sm: 26 }}>
          {title}
        </Title>
        <Text c="dimmed" fz="md">
          {children}
        </Text>
        {actions && (
          <Group justify="center" gap="sm" mt="xs">
            {actions}
          </Group>
        )}
      </Stack>
    </Card>
  );
}
