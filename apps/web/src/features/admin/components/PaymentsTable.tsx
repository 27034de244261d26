// A user's payments, newest first: when, what, how much, what was refunded, any dispute, whether
// it granted what it bought; and Refund while something is left to refund.
import { Button, Table, VisuallyHidden } from '@mantine/core';
import type { AdminPayment } from '@ownvoice/shared';
import { paymentRow } from '../payments';

export function PaymentsTable({
  payments,
  onRefund,
}: {
  payments: AdminPayment[];
  onRefund: (payment: AdminPayment) => void;
}) {
  return (
    <Table.ScrollContainer minWidth={720}>
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
                </Table.Td>
              </Table.Tr>
            );
          })}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
