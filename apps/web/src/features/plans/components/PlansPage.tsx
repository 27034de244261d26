import { Button } from '@mantine/core';
import { IconLayoutDashboard, IconShoppingCart } from '@tabler/icons-react';
import { Link } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /dashboard/plans ("Buy More Usage"): plans and top-up packs, filled when billing lands. */
export function PlansPage() {
  return (
    <Page title="Buy More Usage" description="Plans and one-time top-up packs.">
      <ComingSoon
        title="Billing is coming soon"
        icon={<IconShoppingCart size={32} />}
        actions={
          <Button
            component={Link}
            to={PATHS.dashboard}
            variant="default"
            leftSection={<IconLayoutDashboard size={18} />}
          >
            Go to Dashboard
          </Button>
        }
      >
        Choose between the Minimum, Pro and Virtuoso plans, monthly or annually, and buy top-up packs of Voices, waking
        hours, proofreads, short content and storage slots right here.
      </ComingSoon>
    </Page>
  );
}
