// A user's payments, newest first: when, what, how much, what was refunded, any dispute, whether
// it granted what it bought; Refund while something is left to refund; and on the offline
// provider, a bank's next step of a dispute to rehearse (decision 35).
import { Button, Group, Menu, Table, VisuallyHidden } from '@mantine/core';
import type { AdminPayment, DisputeRehearsalStep } from '@ownvoice/shared';
import { TableScrollRegion } from '../../../components/TableScrollRegion';
import { paymentRow, rehearsalSteps } from '../payments';

export function PaymentsTable({
  payments,
  onRefund,
  onRehearse,
}: {
  payments: AdminPayment[];
  onRefund: (payment: AdminPayment) => void;
  /** Only where disputes can be rehearsed (the offline provider). */
  onRehearse?: (payment: AdminPayment, step: DisputeRehearsalStep) => void;
}) {
  return (
    <TableScrollRegion label="Payments" minWidth={720}>
      <Table striped verticalSpacing="xs" fz="sm" data-testid="payments-table">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Date</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th ta="right">Amount</Table.Th>
            <Table.Th ta="right">Refunded</Table.Th>
            <Table.Th>Dispute</Table.Th>
            <Table.Th>Outcome</Table.Th>
            <Table.Th>
              <VisuallyHidden>Actions</VisuallyHidden>
            </Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {payments.map((payment) => {
            const row = paymentRow(payment);
            return (
              <Table.Tr key={row.id} data-testid="payment-row">
                <Table.Td style={{ whiteSpace: 'nowrap' }}>{row.date}</Table.Td>
                <Table.Td>{row.what}</Table.Td>
                <Table.Td ta="right">{row.amount}</Table.Td>
                <Table.Td ta="right">{row.refunded}</Table.Td>
                <Table.Td>{row.dispute}</Table.Td>
                <Table.Td>{row.outcome}</Table.Td>
                <Table.Td ta="right">
                  <Group gap="xs" justify="flex-end" wrap="nowrap">
                    {onRehearse && <RehearseMenu payment={payment} onRehearse={onRehearse} />}
                    {row.leftCents > 0 && (
                      <Button
                        size="compact-sm"
                        variant="default"
                        onClick={() => onRefund(payment)}
                        aria-label={`Refund ${row.what} of ${row.date}`}
                      >
                        Refund
                      </Button>
                    )}
                  </Group>
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </TableScrollRegion>
  );
}

function RehearseMenu({
  payment,
  onRehearse,
}: {
  payment: AdminPayment;
  onRehearse: (payment: AdminPayment, step: DisputeRehearsalStep) => void;
}) {
  const steps = rehearsalSteps(payment);
  if (steps.length === 0) return null;
  const row = paymentRow(payment);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="compact-sm" variant="subtle" aria-label={`Rehearse a dispute of ${row.what} of ${row.date}`}>
          Dispute…
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Rehearse what the bank does</Menu.Label>
        {steps.map(({ step, label }) => (
          <Menu.Item key={step} onClick={() => onRehearse(payment, step)}>
            {label}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
