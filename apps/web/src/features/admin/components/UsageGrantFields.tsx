// The Edit limits form's usage grant: a tranche of one resource, its amount and the day it ends.
import { NativeSelect, NumberInput, SimpleGrid, TextInput } from '@mantine/core';
import { ADMIN_USAGE_GRANT_MAX, RESOURCE_LABELS, TRANCHE_TYPES } from '@ownvoice/shared';
import type { LimitsFormValues } from '../limits-form';
import { optionOf } from '../select-option';

const TYPE_OPTIONS = [
  { value: '', label: 'No grant' },
  ...TRANCHE_TYPES.map((type) => ({ value: type, label: RESOURCE_LABELS[type] })),
];

export interface LimitsFieldsProps {
  values: LimitsFormValues;
  set: <K extends keyof LimitsFormValues>(key: K, value: LimitsFormValues[K]) => void;
}

export function UsageGrantFields({ values, set }: LimitsFieldsProps) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm" data-testid="limits-usage-grant">
      <NativeSelect
        label="Resource to grant"
        data={TYPE_OPTIONS}
        value={values.grantType ?? ''}
        onChange={(event) => set('grantType', optionOf(TRANCHE_TYPES, event.currentTarget.value))}
      />
      <NumberInput
        label="Amount to grant"
        min={1}
        max={ADMIN_USAGE_GRANT_MAX}
        allowDecimal={false}
        allowNegative={false}
        value={values.grantAmount}
        onChange={(value) => set('grantAmount', typeof value === 'number' ? value : '')}
      />
      <TextInput
        type="date"
        size="sm"
        label="Expires on"
        value={values.grantExpiry}
        onChange={(event) => set('grantExpiry', event.currentTarget.value)}
      />
    </SimpleGrid>
  );
}
