// /onboarding/choice: pay later after a trial, or pay now with 15% off for life. A server without
// payments sells neither and says so, with the way on to a first Voice. Admins may skip onboarding
// altogether.
import { Badge, Button, Card, Container, Group, List, SimpleGrid, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { clientMayMoveTo, isAdminRole } from '@ownvoice/shared';
import { IconCheck, IconClockPause, IconDiscount, IconShieldCheck } from '@tabler/icons-react';
import type { MouseEvent, ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { NoBillingNotice } from '../../../components/billing/NoBillingNotice';
import { useDocumentTitle } from '../../../components/Page';
import { useBillingAvailability } from '../../../lib/billing/billing-queries';
import { authPath, ONBOARDING_BYPASS_PATH, PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { FIRST_CHARGE_TEXT } from '../trial-copy';

interface ChoiceProps {
  icon: ReactNode;
  title: string;
  badge?: string;
  points: string[];
  cta: string;
  to: string;
  /** Runs before going on (the step moves to `choice`); going on does not wait for its failure. */
  onChoose: (event: MouseEvent) => void;
  highlighted?: boolean;
}

function Choice({ icon, title, badge, points, cta, to, onChoose, highlighted = false }: ChoiceProps) {
  return (
    <Card
      h="100%"
      style={highlighted ? { borderColor: 'var(--mantine-color-violet-5)', borderWidth: 2 } : undefined}
      data-testid="onboarding-choice"
    >
      <Stack gap="md" h="100%">
        <Group justify="space-between" align="flex-start">
          <ThemeIcon size={48} radius="md" variant={highlighted ? 'filled' : 'light'}>
            {icon}
          </ThemeIcon>
          {badge && (
            <Badge size="lg" variant="filled">
              {badge}
            </Badge>
          )}
        </Group>
        <Title order={2} fz="xl">
          {title}
        </Title>
        <List
          spacing="xs"
          icon={
            <ThemeIcon size={20} radius="xl" variant="light" color="teal">
              <IconCheck size={12} stroke={3} />
            </ThemeIcon>
          }
          style={{ flex: 1 }}
        >
          {points.map((point) => (
            <List.Item key={point}>
              <Text fz="sm">{point}</Text>
            </List.Item>
          ))}
        </List>
        <Button
          component={Link}
          to={to}
          onClick={onChoose}
          size="md"
          fullWidth
          variant={highlighted ? 'filled' : 'light'}
        >
          {cta}
        </Button>
      </Stack>
    </Card>
  );
}

export function OnboardingChoicePage() {
  const { user, advanceOnboarding } = useSession();
  const navigate = useNavigate();
  const billing = useBillingAvailability();
  useDocumentTitle('Choose how to start');
  // Signed-out visitors see the same choice; picking one asks them to create an account first.
  const through = (path: string) => (user ? path : authPath('register', path));
  // Picking one is the `choice` step; it is recorded before the next page moves the step on, so
  // the two never arrive out of order.
  const choose = (path: string) => (event: MouseEvent) => {
    if (!user || !clientMayMoveTo(user.onboarding.step, 'choice')) return;
    event.preventDefault();
    void advanceOnboarding('choice')
      .catch(() => undefined)
      .then(() => navigate(path));
  };

  return (
    <Container size="md" py={{ base: 'xl', sm: 56 }}>
      <Stack gap="xl">
        <Stack gap="xs" ta="center" align="center">
          <Badge size="lg" variant="light" tt="none">
            {user ? `Welcome, ${user.username}` : 'Welcome'}
          </Badge>
          <Title order={1} fz={{ base: 28, sm: 36 }}>
            {billing.kind === 'none' ? 'Start with your first Voice' : 'How would you like to start?'}
          </Title>
          <Text c="dimmed" fz="lg" maw={560}>
            {billing.kind === 'none'
              ? 'Train it on your own writing, or bring one along.'
              : 'Either way you train your first Voice next. You can change plans at any time.'}
          </Text>
        </Stack>
        {billing.kind === 'none' ? (
          <NoBillingNotice
            actions={
              <Button component={Link} to={through(PATHS.createVoice)}>
                Create your first Voice
              </Button>
            }
          />
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="lg">
            <Choice
              icon={<IconClockPause size={26} />}
              title="Try first, pay later"
              points={[
                'Start with a trial and train your first Voice',
                FIRST_CHARGE_TEXT,
                'Switch to any plan whenever you like',
              ]}
              cta="Pay later"
              to={through(PATHS.onboardingPayLater)}
              onChoose={choose(PATHS.onboardingPayLater)}
            />
            <Choice
              icon={<IconDiscount size={26} />}
              title="Pay now, save for life"
              badge="15% off for life"
              points={[
                'Pick Minimum, Pro or Virtuoso',
                'Keep 15% off every renewal, for as long as you stay',
                'Monthly or annual billing (annual is 20% cheaper)',
              ]}
              cta="Pay now and get 15% off"
              to={through(PATHS.onboardingPlans)}
              onChoose={choose(PATHS.onboardingPlans)}
              highlighted
            />
          </SimpleGrid>
        )}
        {user && isAdminRole(user.role) && (
          <Card bg="orange.0" style={{ borderColor: 'var(--mantine-color-orange-3)' }} padding="lg">
            <Stack gap="xs" align="flex-start">
              <Text fw={700}>
                <IconShieldCheck size={18} style={{ verticalAlign: '-3px', marginRight: 6 }} aria-hidden="true" />
                Admin shortcut
              </Text>
              <Text fz="sm" c="dimmed">
                As an admin you can skip billing and go straight to Voice creation.
              </Text>
              <Button component={Link} to={ONBOARDING_BYPASS_PATH} color="orange" variant="light">
                Bypass onboarding
              </Button>
            </Stack>
          </Card>
        )}
      </Stack>
    </Container>
  );
}
