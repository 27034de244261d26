// The purchase modal's quick top-up: the packs that add what the action lacks (one, or one per
// resource when it needs several, as a Voice does), bought in one checkout without leaving for the
// plans page; after paying, the success page offers to come back here.
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { formatUsd, type PackId, packsPriceCents } from '@ownvoice/shared';
import { IconBolt } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { packLabel, packNote } from '../../lib/billing/catalog-copy';
import { usePackPurchase } from '../../lib/billing/use-pack-purchase';

export function QuickTopUp({ packs }: { packs: readonly [PackId, ...PackId[]] }) {
  const location = useLocation();
  const { busyPack, error, clearError, buy } = usePackPurchase();
  const label = packs.map(packLabel).join(' and ');
  const price = formatUsd(packsPriceCents(packs));

  return (
    <Card withBorder padding="sm" bg="violet.0" data-testid="purchase-quick-topup-card">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600} fz="sm">
            Quick top-up: {label}
          </Text>
          <Text fz="xs" c="dimmed">
            {packs.length > 1 ? 'One checkout for everything it needs' : packNote(packs[0])}
          </Text>
        </Group>
        <ErrorAlert message={error} onClose={clearError} />
        {/* The label wraps instead of being cut: on a phone "Buy +10 Voice waking hours — $7.99" is
            wider than the window, and the price is the part that must not go missing. */}
        <Button
          fullWidth
          h="auto"
          mih={36}
          py={6}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'center', lineHeight: 1.35 } }}
          leftSection={<IconBolt size={16} />}
          loading={busyPack === packs[0]}
          onClick={() => void buy(packs, location.pathname + location.search)}
          data-testid="purchase-quick-topup"
        >
          Buy {packs.length === 1 ? label : packs.length === 2 ? 'both' : 'all'} — {price}
        </Button>
      </Stack>
    </Card>
  );
}
