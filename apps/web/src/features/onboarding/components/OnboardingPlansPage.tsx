import { BillingComingSoon } from './BillingComingSoon';

export function OnboardingPlansPage() {
  return (
    <BillingComingSoon title="Pay now and save 15% for life">
      Paying now gets you 15% off the Minimum, Pro and Virtuoso plans for as long as you stay. Checkout is not open yet
      during the beta, so for now you can go straight on and create your first Voice.
    </BillingComingSoon>
  );
}
