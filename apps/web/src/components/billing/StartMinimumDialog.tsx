// Asks before ending the trial, which charges the saved card at once: what starts, what it costs
// now and after, and when.

import { TRIAL_CHARGE_STATEMENT, TRIAL_FIRST_CHARGE } from '@ownvoice/shared';
import { ConfirmDialog } from '../ConfirmDialog';

export function StartMinimumDialog({
  opened,
  also,
  onConfirm,
  onCancel,
}: {
  opened: boolean;
  /** What else the confirmation does (finishing the tutorial), said first. */
  also?: string;
  onConfirm: () => void;
  onCancel: () => void;
}) {
  return (
    <ConfirmDialog
      opened={opened}
      title="Start the Minimum plan now?"
      confirmLabel={`Start and pay ${TRIAL_FIRST_CHARGE}`}
      onConfirm={onConfirm}
      onCancel={onCancel}
    >
      {also ? `${also} ` : ''}Your trial ends and the Minimum plan starts today, charged to the card you saved.{' '}
      {TRIAL_CHARGE_STATEMENT}
    </ConfirmDialog>
  );
}
