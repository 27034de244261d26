// The usage ledger (what was granted, bought and spent), closed until asked for, since it is read
// rarely and costs a request.
import { Box, Button, Card, Center, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { IconChevronDown, IconChevronUp, IconHistory } from '@tabler/icons-react';
import { useState } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { TableScrollRegion } from '../../../components/TableScrollRegion';
import { errorMessage } from '../../../lib/api-error';
import { useLedger } from '../../../lib/billing/billing-queries';
import { CREDITS_NOTE, ledgerRow, needsCreditsNote } from '../ledger-rows';

function LedgerTable() {
  const ledger = useLedger(true);
  if (ledger.isPending) {
    return (
      <Center py="md">
        <Loader size="sm" aria-label="Loading usage history" />
      </Center>
    );
  }
  if (ledger.isError) return <ErrorAlert message={errorMessage(ledger.error, 'Failed to load usage history')} />;
  if (ledger.data.length === 0) {
    return (
      <Text fz="sm" c="dimmed">
        Nothing yet.
      </Text>
    );
  }
  return (
    <Stack gap="xs">
      <TableScrollRegion label="Usage history" minWidth={480}>
        <Table verticalSpacing={6} fz="sm" data-testid="usage-history-table">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Date</Table.Th>
              <Table.Th>Resource</Table.Th>
              <Table.Th ta="right">Amount</Table.Th>
              <Table.Th>Why</Table.Th>
              <Table.Th>Expires</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {ledger.data.map(ledgerRow).map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>{row.date}</Table.Td>
                <Table.Td>{row.resource}</Table.Td>
                <Table.Td ta="right" fw={600}>
                  {row.amount}
                </Table.Td>
                <Table.Td>{row.reason}</Table.Td>
                <Table.Td c="dimmed">{row.expires}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </TableScrollRegion>
      {needsCreditsNote(ledger.data) && (
        <Text fz="xs" c="dimmed" data-testid="usage-history-credits-note">
          {CREDITS_NOTE}
        </Text>
      )}
    </Stack>
  );
}

export function UsageHistory() {
  const [open, setOpen] = useState(false);
  return (
    <Card data-testid="usage-history">
      <Group justify="space-between">
        <Group gap="xs">
          <IconHistory size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            Usage history
          </Title>
        </Group>
        <Button
          variant="subtle"
          size="compact-sm"
          onClick={() => setOpen((o) => !o)}
          rightSection={open ? <IconChevronUp size={16} /> : <IconChevronDown size={16} />}
          aria-expanded={open}
        >
          {open ? 'Hide' : 'Show'}
        </Button>
      </Group>
      {open && (
        <Box mt="sm">
          <LedgerTable />
        </Box>
      )}
    </Card>
  );
}
