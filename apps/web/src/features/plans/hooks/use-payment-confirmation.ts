// Re-reads the account after a checkout until the payment shows (the webhook may land after the
// person is back), a few times at most; see lib/billing/payment-confirmation.
import { useEffect, useState } from 'react';
import {
  CONFIRMATION_POLL,
  type ConfirmationState,
  clearSnapshot,
  confirmationState,
  readSnapshot,
} from '../../../lib/billing/payment-confirmation';
import { useSession } from '../../../lib/session/session-context';

export function usePaymentConfirmation(): ConfirmationState {
  const { user, refresh } = useSession();
  const [before] = useState(readSnapshot);
  const [attempts, setAttempts] = useState(0);
  const state = confirmationState({ before, current: user, attempts });

  useEffect(() => {
    if (state !== 'confirming') return;
    const timer = setTimeout(
      () => {
        refresh()
          .catch(() => null)
          .finally(() => setAttempts((n) => n + 1));
      },
      attempts === 0 ? 0 : CONFIRMATION_POLL.intervalMs,
    );
    return () => clearTimeout(timer);
  }, [state, attempts, refresh]);

  // Nothing to compare with: read the account once, so what the page leads to is current.
  useEffect(() => {
    if (before === null) refresh().catch(() => null);
  }, [before, refresh]);

  useEffect(() => {
    if (state === 'confirmed' || state === 'pending' || state === 'trial_refused') clearSnapshot();
  }, [state]);

  return state;
}
