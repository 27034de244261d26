// Edit limits: a usage grant and the account's settings in one form; only what changed is sent
// (limits-form.ts), with a second-factor code.
import { Button, Divider, Group, Stack, Text } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { useUpdateLimits } from '../hooks/use-admin-actions';
import { type LimitsFormValues, limitsFormFrom, limitsRequestBody } from '../limits-form';
import { AccountStateFields } from './AccountStateFields';
import { UsageGrantFields } from './UsageGrantFields';

export function LimitsModal({ user, onClose }: { user: User; onClose: () => void }) {
  const [values, setValues] = useState<LimitsFormValues>(() => limitsFormFrom(user));
  const [formError, setFormError] = useState<string | null>(null);
  const update = useUpdateLimits(user.id, onClose);
  // Where plans are sold, a plan comes with its payment: the server refuses to set one by hand.
  const plansSold = useBillingAvailability().kind !== 'none';

  const set = <K extends keyof LimitsFormValues>(key: K, value: LimitsFormValues[K]) =>
    setValues((current) => ({ ...current, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    update.clearError();
    const result = limitsRequestBody(values, user);
    if (result.ok) {
      setFormError(null);
      update.execute(result.body);
    } else {
      setFormError(result.message);
    }
  };

  return (
    <Dialog
      opened
      onClose={onClose}
      title={`Edit limits of ${user.username}`}
      size="lg"
      centered
      data-testid="limits-modal"
    >
      <form onSubmit={submit} noValidate aria-label="Edit limits">
        <Stack gap="md">
          <Divider label="Grant usage" labelPosition="left" />
          <Text fz="xs" c="dimmed">
            Optional. A grant needs all three: what, how much, and until when.
          </Text>
          <UsageGrantFields values={values} set={set} />
          <Divider label="Account" labelPosition="left" />
          <AccountStateFields values={values} set={set} plansSold={plansSold} />
          <ErrorAlert message={formError ?? update.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={update.pending}>
              Save limits
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
