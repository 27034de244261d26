// A scheduled downgrade, said above the plan cards so the person sees what is coming.
import { Alert } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { IconCalendarEvent } from '@tabler/icons-react';
import { describePendingChange, displayablePendingChange } from '../../../lib/billing/pending-change';

export function PendingChangeAlert({ user }: { user: User }) {
  const pending = displayablePendingChange(user);
  if (!pending) return null;
  return (
    <Alert
      color="blue"
      icon={<IconCalendarEvent size={20} />}
      title="Plan change scheduled"
      data-testid="pending-change"
    >
      Your plan changes to {describePendingChange(pending)}.
    </Alert>
  );
}
