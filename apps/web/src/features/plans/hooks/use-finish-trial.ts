// Finishing the trial from the plans page: asked first (it starts the Minimum plan and charges
// the card), then the account is read again either way, so a refused first payment shows as due.
import { TRIAL_FIRST_CHARGE } from '@ownvoice/shared';
import { useState } from 'react';
import { finishTrial } from '../../../lib/billing/billing-api';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem } from '../../../lib/billing/billing-problem';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';

export function useFinishTrial(onError: (problem: BillingProblem | null) => void) {
  const { refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);

  const finish = async () => {
    setAsking(false);
    onError(null);
    setBusy(true);
    try {
      await finishTrial();
      await refresh();
      notifySuccess(
        `Your Minimum plan has started and ${TRIAL_FIRST_CHARGE} was charged to your card.`,
        'Trial finished',
      );
    } catch (error) {
      // A declined or unconfirmed first payment (402) says so with the link to pay; the account,
      // read again, shows it as the payment due.
      onError(billingProblem(error, BILLING_MESSAGES.finishTrialFailed));
      await refresh().catch(() => undefined);
    }
    setBusy(false);
  };

  return {
    busy,
    asking,
    ask: () => setAsking(true),
    cancel: () => setAsking(false),
    confirm: () => void finish(),
  };
}
