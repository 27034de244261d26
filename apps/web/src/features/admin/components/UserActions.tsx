// A row's actions as a compact group of icon buttons: grant credits, edit limits, payments (where
// this server takes them), the activity log, delete (never offered for a super admin). On one's own
// row only the activity log: another admin changes your account.
import { ActionIcon, Group, Tooltip } from '@mantine/core';
import type { User } from '@ownvoice/shared';
import { IconAdjustments, IconCoins, IconHistory, IconReceipt } from '@tabler/icons-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { userActivityPath } from '../../../lib/paths';
import { DeleteUserButton } from './DeleteUserButton';
import { GrantCreditsModal } from './GrantCreditsModal';
import { LimitsModal } from './LimitsModal';
import { PaymentsModal } from './PaymentsModal';

type OpenModal = 'grant' | 'limits' | 'payments' | null;

export interface UserActionsProps {
  user: User;
  self?: boolean;
  /** Where the buttons gather: at the end of their own column, or at the start under the name. */
  justify?: 'flex-end' | 'flex-start';
}

export function UserActions({ user, self = false, justify = 'flex-end' }: UserActionsProps) {
  const [open, setOpen] = useState<OpenModal>(null);
  const close = () => setOpen(null);
  const billing = useBillingAvailability();
  const activity = (
    <Tooltip label="Activity" withArrow>
      <ActionIcon variant="subtle" component={Link} to={userActivityPath(user.id)} aria-label="Activity">
        <IconHistory size={18} />
      </ActionIcon>
    </Tooltip>
  );
  if (self) {
    return (
      <Group gap={4} wrap="nowrap" justify={justify}>
        {activity}
      </Group>
    );
  }
  return (
    <Group gap={4} wrap="nowrap" justify={justify}>
      <Tooltip label="Grant credits" withArrow>
        <ActionIcon variant="subtle" aria-label="Grant credits" onClick={() => setOpen('grant')}>
          <IconCoins size={18} />
        </ActionIcon>
      </Tooltip>
      <Tooltip label="Edit limits" withArrow>
        <ActionIcon variant="subtle" aria-label="Edit limits" onClick={() => setOpen('limits')}>
          <IconAdjustments size={18} />
        </ActionIcon>
      </Tooltip>
      {billing.kind !== 'none' && (
        <Tooltip label="Payments" withArrow>
          <ActionIcon variant="subtle" aria-label="Payments" onClick={() => setOpen('payments')}>
            <IconReceipt size={18} />
          </ActionIcon>
        </Tooltip>
      )}
      {activity}
      {user.role !== 'super_admin' && <DeleteUserButton user={user} />}
      {/* Mounted only while open, so each opening starts from the user's current values. */}
      {open === 'grant' && <GrantCreditsModal user={user} onClose={close} />}
      {open === 'limits' && <LimitsModal user={user} onClose={close} />}
      {open === 'payments' && <PaymentsModal user={user} onClose={close} />}
    </Group>
  );
}
