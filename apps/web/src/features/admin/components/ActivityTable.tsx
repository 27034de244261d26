// A page of activity-log events: what happened, the details, who acted and when.
import { Table } from '@mantine/core';
import type { Activity } from '@ownvoice/shared';
import { TableScrollRegion } from '../../../components/TableScrollRegion';
import { activityRow } from '../../../lib/activity';

export function ActivityTable({ activities }: { activities: Activity[] }) {
  return (
    <TableScrollRegion label="Activity" minWidth={640}>
      <Table striped verticalSpacing="xs" fz="sm" data-testid="activity-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Action</Table.Th>
            <Table.Th>Details</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th>Date</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {activities.map(activityRow).map((row) => (
            <Table.Tr key={row.id} data-testid="activity-row">
              <Table.Td fw={600}>{row.action}</Table.Td>
              <Table.Td>{row.details}</Table.Td>
              <Table.Td>{row.by}</Table.Td>
              <Table.Td c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                {row.date}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </TableScrollRegion>
  );
}
