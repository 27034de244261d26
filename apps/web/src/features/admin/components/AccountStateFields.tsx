// The Edit limits form's account settings: storage slots, plan and cycle, onboarding step and
// subscription status, each starting at the user's current value. Where plans are sold, the plan
// comes with its payment and cannot be set here, and the status cancels or reactivates through the
// payment provider (decision 20.6).
import { NativeSelect, NumberInput, SimpleGrid } from '@mantine/core';
import {
  BILLING_CYCLES,
  CYCLE_LABELS,
  ONBOARDING_STEPS,
  PLAN_LABELS,
  PLAN_NAMES,
  SUBSCRIPTION_STATUSES,
} from '@ownvoice/shared';
import { stepLabel } from '../limits-form';
import { optionOf } from '../select-option';
import type { LimitsFieldsProps } from './UsageGrantFields';

const PLAN_OPTIONS = PLAN_NAMES.map((name) => ({ value: name, label: PLAN_LABELS[name] }));
const CYCLE_OPTIONS = [
  { value: '', label: 'None' },
  ...BILLING_CYCLES.map((cycle) => ({ value: cycle, label: CYCLE_LABELS[cycle] })),
];
const STEP_OPTIONS = ONBOARDING_STEPS.map((step) => ({ value: step, label: stepLabel(step) }));
const STATUS_OPTIONS = [
  { value: '', label: 'None' },
  { value: 'active', label: 'Active' },
  { value: 'canceled', label: 'Cancelled' },
];

export function AccountStateFields({ values, set, plansSold }: LimitsFieldsProps & { plansSold: boolean }) {
  const managed = plansSold ? 'Comes with the payment; grant usage instead.' : undefined;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
      <NumberInput
        label="Voice storage slots (total)"
        min={0}
        max={1_000_000}
        allowDecimal={false}
        allowNegative={false}
        value={values.storageSlotsTotal}
        onChange={(value) => set('storageSlotsTotal', typeof value === 'number' ? value : '')}
      />
      <NativeSelect
        label="Subscription status"
        description={plansSold ? 'Cancels or reactivates through the payment provider.' : undefined}
        data={STATUS_OPTIONS}
        value={values.subscriptionStatus ?? ''}
        onChange={(event) => set('subscriptionStatus', optionOf(SUBSCRIPTION_STATUSES, event.currentTarget.value))}
      />
      <NativeSelect
        label="Plan"
        description={managed}
        disabled={plansSold}
        data={PLAN_OPTIONS}
        value={values.planName}
        onChange={(event) => set('planName', optionOf(PLAN_NAMES, event.currentTarget.value) ?? values.planName)}
      />
      <NativeSelect
        label="Billing cycle"
        description={managed}
        disabled={plansSold}
        data={CYCLE_OPTIONS}
        value={values.billingCycle ?? ''}
        onChange={(event) => set('billingCycle', optionOf(BILLING_CYCLES, event.currentTarget.value))}
      />
      <NativeSelect
        label="Onboarding step"
        data={STEP_OPTIONS}
        value={values.onboardingStep}
        onChange={(event) =>
          set('onboardingStep', optionOf(ONBOARDING_STEPS, event.currentTarget.value) ?? values.onboardingStep)
        }
      />
    </SimpleGrid>
  );
}
