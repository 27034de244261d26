// Billing arrives in a later release; until then both onboarding paths end here and lead on
// to Voice creation.
import { Button, Container } from '@mantine/core';
import { IconArrowLeft, IconMicrophone } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { ComingSoon } from '../../../components/ComingSoon';
import { useDocumentTitle } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

export function BillingComingSoon({ title, children }: { title: string; children: ReactNode }) {
  useDocumentTitle(title);
  return (
    <Container size="md" py={{ base: 'xl', sm: 56 }}>
      <ComingSoon
        title={title}
        badge="Billing is coming soon"
        actions={
          <>
            <Button component={Link} to={PATHS.createVoice} size="md" leftSection={<IconMicrophone size={18} />}>
              Create your first Voice
            </Button>
            <Button
              component={Link}
              to={PATHS.onboardingChoice}
              variant="default"
              size="md"
              leftSection={<IconArrowLeft size={18} />}
            >
              Back to the choice
            </Button>
          </>
        }
      >
        {children}
      </ComingSoon>
    </Container>
  );
}
