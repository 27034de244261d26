// What a checkout bought and for how much, on the payment success page (lib/billing/checkout-purchase).
import { Paper, Stack, Text } from '@mantine/core';
import { type Purchase, purchaseWords } from '../../../lib/billing/checkout-purchase';

export function PurchaseSummary({ purchase, settled }: { purchase: Purchase; settled: boolean }) {
  const { item, amount, note } = purchaseWords(purchase);
  return (
    <Paper withBorder p="md" w="100%" maw={420} data-testid="payment-purchase">
      <Stack gap={2}>
        <Text fz="xs" c="dimmed" tt="uppercase" fw={700}>
          {settled ? 'You bought' : 'Paying for'}
        </Text>
        <Text fw={600} data-testid="payment-purchase-item">
          {item}
        </Text>
        <Text data-testid="payment-purchase-amount">
          {amount}
          {note ? ` · ${note}` : ''}
        </Text>
      </Stack>
    </Paper>
  );
}
