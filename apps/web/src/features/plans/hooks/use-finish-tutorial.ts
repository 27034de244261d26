// Finish tutorial, at the end of onboarding: on the trial it also finishes the trial (the Minimum
// plan starts and is charged), so that is asked first; otherwise it goes at once.
import { TRIAL_FIRST_CHARGE } from '@ownvoice/shared';
import { useState } from 'react';
import { finishTrial } from '../../../lib/billing/billing-api';
import { BILLING_MESSAGES } from '../../../lib/billing/billing-messages';
import { type BillingProblem, billingProblem } from '../../../lib/billing/billing-problem';
import { useSession } from '../../../lib/session/session-context';
import { notifySuccess } from '../../../lib/toast';
import type { FinishTutorialPlan } from '../tutorial';

export function useFinishTutorial(
  plan: Exclude<FinishTutorialPlan, null>,
  onError: (problem: BillingProblem | null) => void,
) {
  const { advanceOnboarding, refresh } = useSession();
  const [busy, setBusy] = useState(false);
  const [asking, setAsking] = useState(false);

  const finish = async () => {
    setAsking(false);
    onError(null);
    setBusy(true);
    try {
      if (plan === 'trial') {
        await finishTrial();
        await refresh();
      }
      await advanceOnboarding('tutorial_complete');
      notifySuccess(
        plan === 'trial'
          ? `Your Minimum plan has started and ${TRIAL_FIRST_CHARGE} was charged to your card. Everything is unlocked.`
          : 'Everything is unlocked. Enjoy writing in your Voice!',
        'Tutorial finished',
      );
    } catch (error) {
      // Finishing the trial can be refused for its payment (402, with the link to pay): say so.
      onError(billingProblem(error, BILLING_MESSAGES.finishTutorialFailed));
      if (plan === 'trial') await refresh().catch(() => undefined);
      setBusy(false);
    }
  };

  return {
    busy,
    asking,
    press: () => (plan === 'trial' ? setAsking(true) : void finish()),
    cancel: () => setAsking(false),
    confirm: () => void finish(),
  };
}
