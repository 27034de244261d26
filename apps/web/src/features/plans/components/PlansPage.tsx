// /dashboard/plans ("Buy More Usage"): the three plans, monthly or annual, and the top-up packs;
// on the trial, a way to finish it; a payment that is due, with the way to pay it; at the end of
// onboarding, Finish tutorial. A server without payments explains where usage comes from instead.
import { Button, Center, Loader } from '@mantine/core';
import { useState } from 'react';
import { Link } from 'react-router';
import { BillingProblemAlert } from '../../../components/billing/BillingProblemAlert';
import { NoBillingNotice } from '../../../components/billing/NoBillingNotice';
import { PaymentDueAlert } from '../../../components/billing/PaymentDueAlert';
import { TestModeNotice } from '../../../components/billing/TestModeNotice';
import { Page } from '../../../components/Page';
import type { BillingProblem } from '../../../lib/billing/billing-problem';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { PATHS, TOPUPS_ANCHOR } from '../../../lib/paths';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useScrollToHash } from '../hooks/use-scroll-to-hash';
import { finishTutorialPlan } from '../tutorial';
import { FinishTutorialPanel } from './FinishTutorialPanel';
import { PendingChangeAlert } from './PendingChangeAlert';
import { PlanChoices } from './PlanChoices';
import { TopUpPacks } from './TopUpPacks';
import { TrialPanel } from './TrialPanel';

export function PlansPage() {
  const user = useCurrentUser();
  const billing = useBillingAvailability();
  const [error, setError] = useState<BillingProblem | null>(null);
  const tutorial = finishTutorialPlan(user);
  useScrollToHash(TOPUPS_ANCHOR, billing.kind === 'selling');

  return (
    <Page
      title="Buy More Usage"
      description="Choose a plan, monthly or annually, or top up with a one-time pack."
      size="xl"
    >
      <BillingProblemAlert problem={error} onClose={() => setError(null)} />
      {tutorial && <FinishTutorialPanel plan={tutorial} onError={setError} />}
      {billing.kind === 'loading' && (
        <Center py={64}>
          <Loader aria-label="Loading plans" />
        </Center>
      )}
      {billing.kind === 'none' && (
        <NoBillingNotice
          actions={
            <Button component={Link} to={PATHS.account} variant="default">
              View my usage
            </Button>
          }
        />
      )}
      {billing.kind === 'selling' && (
        <>
          {billing.testMode && <TestModeNotice />}
          <PaymentDueAlert user={user} />
          {user.plan.name === 'trial' && <TrialPanel onError={setError} />}
          <PendingChangeAlert user={user} />
          <PlanChoices onError={setError} />
          <TopUpPacks onError={setError} />
        </>
      )}
    </Page>
  );
}
