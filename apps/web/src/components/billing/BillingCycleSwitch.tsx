// Monthly or annual: the switch above the plan cards.
import { SegmentedControl } from '@mantine/core';
import { ANNUAL_DISCOUNT_PERCENT, type BillingCycle } from '@ownvoice/shared';

const OPTIONS = [
  { value: 'monthly', label: 'Monthly' },
  { value: 'annual', label: `Annual (save ${ANNUAL_DISCOUNT_PERCENT}%)` },
];

export function BillingCycleSwitch({
  value,
  onChange,
}: {
  value: BillingCycle;
  onChange: (cycle: BillingCycle) => void;
}) {
  return (
    <SegmentedControl
      value={value}
      onChange={(next) => onChange(next === 'annual' ? 'annual' : 'monthly')}
      data={OPTIONS}
      aria-label="Billing cycle"
      data-testid="billing-cycle"
      style={{ alignSelf: 'center' }}
    />
  );
}
