// A plan's price on its card: the payment, the struck-through list price under the pay-now
// discount, and for annual billing what the year comes to a month.
import { Group, Stack, Text } from '@mantine/core';
import type { BillingCycle, PaidPlanName } from '@ownvoice/shared';
import { planPriceView } from '../../lib/billing/plan-price';

export function PlanPrice({ plan, cycle, payNow }: { plan: PaidPlanName; cycle: BillingCycle; payNow: boolean }) {
  const view = planPriceView(plan, cycle, { payNow });
  return (
    <Stack gap={2}>
      <Group gap={8} align="baseline" wrap="nowrap">
        {view.listPrice && (
          <Text component="s" c="dimmed" fz="lg" data-testid={`plan-list-price-${plan}`}>
            {view.listPrice}
          </Text>
        )}
        <Text fz={32} fw={800} lh={1.1} data-testid={`plan-price-${plan}`}>
          {view.price}
        </Text>
        <Text c="dimmed" fz="sm">
          /{view.period}
        </Text>
      </Group>
      <Text c="dimmed" fz="sm" mih={20}>
        {view.perMonth ? `${view.perMonth}/mo, billed yearly` : 'Billed monthly'}
      </Text>
    </Stack>
  );
}
