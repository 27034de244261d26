// The landing page's plans and top-up packs, from the same table as the plans page, at their
// monthly prices. Hidden on a server that sells nothing.
import { Box, Button, Container, Stack, Text, Title } from '@mantine/core';
import { ANNUAL_DISCOUNT_PERCENT } from '@ownvoice/shared';
import { Link } from 'react-router';
import { PackCardGrid } from '../../../components/billing/PackCardGrid';
import { PlanCardGrid } from '../../../components/billing/PlanCardGrid';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { useSession } from '../../../lib/session/session-context';
import { landingBuyLinks } from '../landing-links';

export function LandingPlans() {
  const billing = useBillingAvailability();
  const { status } = useSession();
  if (billing.kind !== 'selling') return null;
  const links = landingBuyLinks(status === 'authenticated');

  return (
    <Box py={{ base: 48, sm: 72 }} id="plans" data-testid="landing-plans">
      <Container size="xl">
        <Stack gap="xl">
          <Stack gap={6} ta="center" align="center">
            <Title order={2}>Plans</Title>
            <Text c="dimmed" maw={600}>
              Monthly, or annually for {ANNUAL_DISCOUNT_PERCENT}% less. Change or cancel whenever you like.
            </Text>
          </Stack>
          <PlanCardGrid
            cycle="monthly"
            payNow={false}
            renderAction={(plan) => (
              <Button component={Link} to={links.plan(plan)} fullWidth data-testid={`plan-button-${plan}`}>
                Choose plan
              </Button>
            )}
          />
          <Stack gap={6} ta="center" align="center" mt="md">
            <Title order={3}>Top-up packs</Title>
            <Text c="dimmed">One-time purchases for when you need a little more.</Text>
          </Stack>
          <PackCardGrid
            renderAction={(pack) => (
              <Button component={Link} to={links.pack} fullWidth variant="light" data-testid={`pack-signup-${pack}`}>
                Sign Up
              </Button>
            )}
          />
        </Stack>
      </Container>
    </Box>
  );
}
