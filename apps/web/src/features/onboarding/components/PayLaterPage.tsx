import { BillingComingSoon } from './BillingComingSoon';

export function PayLaterPage() {
  return (
    <BillingComingSoon title="Pay later">
      With pay later you start on a trial and your first charge is $10. Card setup is not open yet during the beta, so
      for now you can go straight on and create your first Voice.
    </BillingComingSoon>
  );
}
