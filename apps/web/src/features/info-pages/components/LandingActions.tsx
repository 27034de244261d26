// The landing page's ways in: Get Started and Login for visitors (both returning to the
// onboarding plans page afterwards), Go to Dashboard for someone already signed in.
import { Anchor, Button, Group, Text } from '@mantine/core';
import { IconArrowRight } from '@tabler/icons-react';
import { Link } from 'react-router';
import { authPath, PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';

const REGISTER = authPath('register', PATHS.onboardingPlans);
const LOGIN = authPath('login', PATHS.onboardingPlans);

function DashboardButton() {
  return (
    <Button component={Link} to={PATHS.dashboard} size="lg" rightSection={<IconArrowRight size={18} />}>
      Go to Dashboard
    </Button>
  );
}

export function HeroActions() {
  const { status } = useSession();
  if (status === 'authenticated') return <DashboardButton />;
  return (
    <Group gap="sm" justify="center">
      <Button component={Link} to={REGISTER} size="lg" rightSection={<IconArrowRight size={18} />}>
        Get Started
      </Button>
      <Button component={Link} to={LOGIN} size="lg" variant="default">
        Login
      </Button>
    </Group>
  );
}

/** The closing call to action, under the FAQ: the same destinations, worded for the end of the page. */
export function ClosingActions() {
  const { status } = useSession();
  if (status === 'authenticated') return <DashboardButton />;
  return (
    <>
      <Button component={Link} to={REGISTER} size="lg" rightSection={<IconArrowRight size={18} />}>
        Create your account
      </Button>
      <Text fz="sm" c="dimmed">
        Already have one?{' '}
        <Anchor component={Link} to={LOGIN}>
          Log in
        </Anchor>
      </Text>
    </>
  );
}
