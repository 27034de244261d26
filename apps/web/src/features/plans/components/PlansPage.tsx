import { IconShoppingCart } from '@tabler/icons-react';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';

/** /dashboard/plans ("Buy More Usage"): plans and top-up packs, filled when billing lands. */
export function PlansPage() {
  return (
    <Page title="Buy More Usage" description="Plans and one-time top-up packs.">
      <ComingSoon title="Billing is coming soon" icon={<IconShoppingCart size={32} />}>
        Choose between the Minimum, Pro and Virtuoso plans, monthly or annually, and buy top-up packs of Voices, waking
        hours, proofreads, short content and storage slots right here.
      </ComingSoon>
    </Page>
  );
}
