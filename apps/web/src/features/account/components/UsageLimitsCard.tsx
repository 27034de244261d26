// Usage limits: what is left of each resource and when the soonest part of it expires.
import { Card, Group, Table, Text, Title } from '@mantine/core';
import type { UsageLimits } from '@ownvoice/shared';
import { IconGauge } from '@tabler/icons-react';
import { formatDate } from '../../../lib/format';
import { formatRemaining, usageSummary } from '../usage-summary';

export function UsageLimitsCard({ limits }: { limits: UsageLimits }) {
  const lines = usageSummary(limits, new Date());
  return (
    <Card data-testid="usage-limits">
      <Group gap="xs" mb="sm">
        <IconGauge size={20} aria-hidden="true" />
        <Title order={2} fz="lg">
          Usage limits
        </Title>
      </Group>
      <Table verticalSpacing={6} fz="sm">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Resource</Table.Th>
            <Table.Th ta="right">Left</Table.Th>
            <Table.Th ta="right">Next expiry</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {lines.map((line) => (
            <Table.Tr key={line.key} data-testid={`usage-${line.key}`}>
              <Table.Td>{line.label}</Table.Td>
              <Table.Td ta="right" fw={600}>
                {line.total === null ? formatRemaining(line) : `${line.remaining} of ${line.total}`}
              </Table.Td>
              <Table.Td ta="right" c="dimmed">
                {line.nearestExpiry ? formatDate(line.nearestExpiry) : '—'}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text fz="xs" c="dimmed" mt="xs">
        Only usage that has not expired counts. Buy More Usage adds to these.
      </Text>
    </Card>
  );
}
