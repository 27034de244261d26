// The five one-time packs under the plans, at #topups so other pages can link straight to them
// (scrolled to clear the sticky header).
import { Button, Stack, Text, Title } from '@mantine/core';
import { IconShoppingCartPlus } from '@tabler/icons-react';
import { PackCardGrid } from '../../../components/billing/PackCardGrid';
import type { BillingProblem } from '../../../lib/billing/billing-problem';
import { TOPUPS_ANCHOR } from '../../../lib/paths';
import { useTopUps } from '../hooks/use-top-ups';

export function TopUpPacks({ onError }: { onError: (problem: BillingProblem | null) => void }) {
  const { busyPack, buy } = useTopUps(onError);

  return (
    <Stack gap="md" id={TOPUPS_ANCHOR} data-testid="topups" style={{ scrollMarginTop: 80 }}>
      <div>
        <Title order={2} fz="xl">
          Top-up packs
        </Title>
        <Text c="dimmed" fz="sm">
          One-time purchases on top of your plan, for when you need a little more.
        </Text>
      </div>
      <PackCardGrid
        renderAction={(pack) => (
          <Button
            fullWidth
            variant="light"
            leftSection={<IconShoppingCartPlus size={16} />}
            loading={busyPack === pack}
            disabled={busyPack !== null && busyPack !== pack}
            onClick={() => buy(pack)}
            data-testid={`pack-buy-${pack}`}
          >
            Buy
          </Button>
        )}
      />
    </Stack>
  );
}
