// One top-up pack: what it adds, its price and a button the page supplies.
import { Card, Stack, Text } from '@mantine/core';
import { formatUsd, PACKS, type PackId } from '@ownvoice/shared';
import type { ReactNode } from 'react';
import { packLabel, packNote } from '../../lib/billing/catalog-copy';

export function PackCard({ pack, action }: { pack: PackId; action: ReactNode }) {
  return (
    <Card h="100%" data-testid={`pack-card-${pack}`}>
      <Stack gap="xs" h="100%">
        <Text fw={700}>{packLabel(pack)}</Text>
        <Text fz={24} fw={800} lh={1.1} data-testid={`pack-price-${pack}`}>
          {formatUsd(PACKS[pack].priceCents)}
        </Text>
        <Text fz="xs" c="dimmed" style={{ flex: 1 }}>
          {packNote(pack)}
        </Text>
        {action}
      </Stack>
    </Card>
  );
}
