// One plan: its name, price, resources and a button the page supplies (Subscribe, Upgrade,
// Choose plan…). The current plan's card is marked; its button is the page's to disable.
import { Badge, Card, Group, List, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import {
  ANNUAL_DISCOUNT_PERCENT,
  type BillingCycle,
  PAY_NOW_DISCOUNT_PERCENT,
  type PaidPlanName,
} from '@ownvoice/shared';
import { IconCheck } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { grantLifetimeNote, planFeatures } from '../../lib/billing/catalog-copy';
import { PLAN_LABELS } from '../../lib/billing/plan-labels';
import { PlanPrice } from './PlanPrice';

export interface PlanCardProps {
  plan: PaidPlanName;
  cycle: BillingCycle;
  /** Shows the pay-now price with the list price struck through. */
  payNow: boolean;
  current?: boolean;
  /** The plan's name as a heading one level under the section it sits in (2 straight under a page's title). */
  headingOrder?: 2 | 3;
  /** The most popular plan gets a coloured border. */
  featured?: boolean;
  action: ReactNode;
}

export function PlanCard({
  plan,
  cycle,
  payNow,
  current = false,
  featured = false,
  action,
  headingOrder = 3,
}: PlanCardProps) {
  return (
    <Card
      h="100%"
      data-testid={`plan-card-${plan}`}
      data-current={current || undefined}
      style={featured ? { borderColor: 'var(--mantine-color-violet-5)', borderWidth: 2 } : undefined}
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="center" gap="xs">
          <Title order={headingOrder} fz="xl">
            {PLAN_LABELS[plan]}
          </Title>
          <Group gap={6}>
            {current && <Badge color="teal">Current plan</Badge>}
            {payNow && <Badge variant="filled">{PAY_NOW_DISCOUNT_PERCENT}% off for life</Badge>}
            {cycle === 'annual' && <Badge variant="light">Save {ANNUAL_DISCOUNT_PERCENT}%</Badge>}
          </Group>
        </Group>
        <PlanPrice plan={plan} cycle={cycle} payNow={payNow} />
        <List
          spacing={6}
          fz="sm"
          style={{ flex: 1 }}
          icon={
            <ThemeIcon size={18} radius="xl" variant="light" color="teal">
              <IconCheck size={12} stroke={3} />
            </ThemeIcon>
          }
        >
          {planFeatures(plan).map((line) => (
            <List.Item key={line}>{line}</List.Item>
          ))}
        </List>
        <Text fz="xs" c="dimmed">
          {grantLifetimeNote(cycle)}
        </Text>
        {action}
      </Stack>
    </Card>
  );
}
