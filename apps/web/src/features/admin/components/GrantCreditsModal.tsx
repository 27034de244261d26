// Granting credits: an amount (1 to 10,000) and a reason the activity log keeps, checked with the
// shared grantCreditsBodySchema before anything is sent.
import { Button, Group, NumberInput, Stack, Text, Textarea } from '@mantine/core';
import {
  ADMIN_GRANT_MAX,
  ADMIN_REASON_MAX,
  firstIssueMessage,
  grantCreditsBodySchema,
  stripReasonMarkup,
  type User,
} from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/Dialog';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { formatCount } from '../../../lib/format';
import { useGrantCredits } from '../hooks/use-admin-actions';

const GRANT_MIN = 1;

export function GrantCreditsModal({ user, onClose }: { user: User; onClose: () => void }) {
  const [amount, setAmount] = useState<number | ''>('');
  const [reason, setReason] = useState('');
  const [formError, setFormError] = useState<string | null>(null);
  const grant = useGrantCredits(onClose);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    grant.clearError();
    const parsed = grantCreditsBodySchema.safeParse({ userId: user.id, amount, reason });
    if (amount !== '' && amount < GRANT_MIN) {
      setFormError(`Grant at least ${GRANT_MIN} credit`);
    } else if (!parsed.success) {
      setFormError(firstIssueMessage(parsed.error));
    } else {
      setFormError(null);
      grant.execute(parsed.data);
    }
  };

  return (
    <Dialog
      opened
      onClose={onClose}
      title={`Grant credits to ${user.username}`}
      centered
      data-testid="grant-credits-modal"
    >
      <form onSubmit={submit} noValidate aria-label="Grant credits">
        <Stack gap="md">
          <Text fz="sm" c="dimmed">
            {user.username} has {formatCount(user.credits)} credits.
          </Text>
          <NumberInput
            label="Amount"
            name="amount"
            min={GRANT_MIN}
            max={ADMIN_GRANT_MAX}
            clampBehavior="strict"
            allowDecimal={false}
            allowNegative={false}
            thousandSeparator=","
            value={amount}
            onChange={(value) => setAmount(typeof value === 'number' ? value : '')}
            data-autofocus
          />
          <Textarea
            label="Reason"
            name="reason"
            description={`Kept in the activity log; 5 to ${ADMIN_REASON_MAX} characters, without < > " ' &`}
            autosize
            minRows={2}
            maxLength={ADMIN_REASON_MAX}
            value={reason}
            onChange={(event) => setReason(event.currentTarget.value)}
            // What the log will keep, shown as soon as the admin moves on.
            onBlur={() => setReason(stripReasonMarkup(reason))}
          />
          <ErrorAlert message={formError ?? grant.error} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={grant.pending}>
              Grant
            </Button>
          </Group>
        </Stack>
      </form>
    </Dialog>
  );
}
