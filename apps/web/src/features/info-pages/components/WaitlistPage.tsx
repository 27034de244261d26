import { Button, Card, Container, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { COMMUNITY_CHAT_URL } from '@ownvoice/shared';
import { IconHourglass } from '@tabler/icons-react';
import { Link } from 'react-router';
import { useDocumentTitle } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

export function WaitlistPage() {
  useDocumentTitle('Waitlist');
  return (
    <Container size="sm" py={{ base: 48, sm: 80 }}>
      <Card p={{ base: 'lg', sm: 48 }}>
        <Stack align="center" ta="center" gap="md">
          <ThemeIcon size={72} radius="xl" variant="light">
            <IconHourglass size={36} />
          </ThemeIcon>
          <Title order={1} fz={{ base: 26, sm: 32 }}>
            The beta is full
          </Title>
          <Text c="dimmed" fz="lg">
            Every place in the OwnVoice beta is taken for now. We open more as we grow capacity, and we announce each
            new round in our community chat first.
          </Text>
          <Group justify="center" mt="sm">
            <Button component="a" href={COMMUNITY_CHAT_URL} target="_blank" rel="noopener noreferrer">
              Join the community chat
            </Button>
            <Button component={Link} to={PATHS.login} variant="default">
              I already have an account
            </Button>
          </Group>
        </Stack>
      </Card>
    </Container>
  );
}
