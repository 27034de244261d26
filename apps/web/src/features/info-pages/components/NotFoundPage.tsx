import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconHome, IconLayoutDashboard } from '@tabler/icons-react';
import { Link, useNavigate } from 'react-router';
import { useDocumentTitle } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

export function NotFoundPage() {
  const navigate = useNavigate();
  useDocumentTitle('Page not found');
  return (
    <Container size="sm" py={{ base: 56, sm: 96 }}>
      <Stack align="center" ta="center" gap="md">
        <Text
          fz={{ base: 96, sm: 140 }}
          fw={900}
          lh={1}
          variant="gradient"
          gradient={{ from: 'violet.3', to: 'indigo.3', deg: 90 }}
          aria-hidden="true"
        >
          404
        </Text>
        <Title order={1} fz={{ base: 26, sm: 32 }}>
          This page does not exist
        </Title>
        <Text c="dimmed" fz="lg">
          The link may be old or mistyped. Here are some ways back.
        </Text>
        <Group justify="center" mt="sm">
          <Button component={Link} to={PATHS.home} leftSection={<IconHome size={18} />}>
            Go Home
          </Button>
          <Button component={Link} to={PATHS.dashboard} variant="light" leftSection={<IconLayoutDashboard size={18} />}>
            Go to Dashboard
          </Button>
          <Button variant="default" leftSection={<IconArrowLeft size={18} />} onClick={() => navigate(-1)}>
            Go Back
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
