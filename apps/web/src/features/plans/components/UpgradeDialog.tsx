// An upgrade is charged at once in full: the person confirms it knowing the amount and the dates.
import type { PlanSelection, User } from '@ownvoice/shared';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { upgradeCopy } from '../upgrade-copy';

export function UpgradeDialog({
  user,
  target,
  onConfirm,
  onCancel,
}: {
  user: User;
  target: PlanSelection | null;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  const copy = target ? upgradeCopy(user, target) : null;
  return (
    <ConfirmDialog
      opened={copy !== null}
      title={copy?.title ?? ''}
      confirmLabel={copy?.confirmLabel ?? ''}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {copy?.body}
    </ConfirmDialog>
  );
}
