// The purchase modal's quick top-up: the one pack that adds what ran out, bought without leaving
// for the plans page; after paying, the success page offers to come back here.
import { Button, Card, Group, Stack, Text } from '@mantine/core';
import { formatUsd, PACKS, type PackId } from '@ownvoice/shared';
import { IconBolt } from '@tabler/icons-react';
import { useLocation } from 'react-router';
import { ErrorAlert } from '../../components/ErrorAlert';
import { packLabel, packNote } from '../../lib/billing/catalog-copy';
import { usePackPurchase } from '../../lib/billing/use-pack-purchase';

export function QuickTopUp({ pack }: { pack: PackId }) {
  const location = useLocation();
  const { busyPack, error, clearError, buy } = usePackPurchase();
  const label = packLabel(pack);
  const price = formatUsd(PACKS[pack].priceCents);

  return (
    <Card withBorder padding="sm" bg="violet.0" data-testid="purchase-quick-topup-card">
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={600} fz="sm">
            Quick top-up: {label}
          </Text>
          <Text fz="xs" c="dimmed">
            {packNote(pack)}
          </Text>
        </Group>
        <ErrorAlert message={error} onClose={clearError} />
        <Button
          leftSection={<IconBolt size={16} />}
          loading={busyPack === pack}
          onClick={() => void buy(pack, location.pathname + location.search)}
          data-testid="purchase-quick-topup"
        >
          Buy {label} — {price}
        </Button>
      </Stack>
    </Card>
  );
}
