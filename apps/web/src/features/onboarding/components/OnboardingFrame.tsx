// The frame of the onboarding billing pages: a narrow column with a way back to the choice.
import { Anchor, Container, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

export function OnboardingFrame({
  title,
  intro,
  size = 'md',
  children,
}: {
  title: string;
  intro: ReactNode;
  size?: 'md' | 'xl';
  children: ReactNode;
}) {
  useDocumentTitle(title);
  return (
    <Container size={size} py={{ base: 'xl', sm: 56 }}>
      <Stack gap="xl">
        <Anchor component={Link} to={PATHS.onboardingChoice} fz="sm" c="dimmed">
          <IconArrowLeft size={14} style={{ verticalAlign: '-2px', marginRight: 4 }} aria-hidden="true" />
          Back to the choice
        </Anchor>
        <Stack gap="xs" ta="center" align="center">
          <Title order={1} fz={{ base: 28, sm: 36 }}>
            {title}
          </Title>
          <Text c="dimmed" fz="lg" maw={620}>
            {intro}
          </Text>
        </Stack>
        {children}
      </Stack>
    </Container>
  );
}
