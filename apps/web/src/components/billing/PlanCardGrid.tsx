// The three plan cards side by side, lowest tier first; each page supplies the buttons.
import { SimpleGrid } from '@mantine/core';
import { type BillingCycle, PAID_PLAN_NAMES, type PaidPlanName } from '@ownvoice/shared';
import type { ReactNode } from 'react';
import { PlanCard } from './PlanCard';

const FEATURED: PaidPlanName = 'pro';

export interface PlanCardGridProps {
  cycle: BillingCycle;
  payNow: boolean;
  isCurrent?: (plan: PaidPlanName) => boolean;
  renderAction: (plan: PaidPlanName) => ReactNode;
  /** 2 where the cards sit straight under the page's title, 3 under a section heading (the default). */
  headingOrder?: 2 | 3;
}

export function PlanCardGrid({
  cycle,
  payNow,
  isCurrent = () => false,
  renderAction,
  headingOrder = 3,
}: PlanCardGridProps) {
  return (
    <SimpleGrid cols={{ base: 1, md: 3 }} spacing="lg">
      {PAID_PLAN_NAMES.map((plan) => (
        <PlanCard
          key={plan}
          plan={plan}
          cycle={cycle}
          payNow={payNow}
          current={isCurrent(plan)}
          featured={plan === FEATURED}
          action={renderAction(plan)}
          headingOrder={headingOrder}
        />
      ))}
    </SimpleGrid>
  );
}
