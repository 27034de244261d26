// One labelled value on the account screen's cards.
import { Group, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export function AccountField({ label, children }: { label: string; children: ReactNode }) {
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
