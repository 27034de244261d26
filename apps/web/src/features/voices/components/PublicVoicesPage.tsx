import { Button, Card, Stack, Text, ThemeIcon } from '@mantine/core';
import { IconArrowLeft, IconWorld } from '@tabler/icons-react';
import { Link } from 'react-router';
import { Page } from '../../../components/Page';
import { PATHS } from '../../../lib/paths';

/** /dashboard/public-loras: Voices other users shared, to fork. None are listed yet. */
export function PublicVoicesPage() {
  return (
    <Page
      title="Public Voices"
      description="Voices other writers have shared. Fork one to get a private copy of your own."
      actions={
        <Button component={Link} to={PATHS.dashboard} variant="default" leftSection={<IconArrowLeft size={18} />}>
          My Voices
        </Button>
      }
    >
      <Card py={56}>
        <Stack align="center" ta="center" gap="sm">
          <ThemeIcon size={64} radius="xl" variant="light" color="gray">
            <IconWorld size={32} />
          </ThemeIcon>
          <Text c="dimmed">There are no public LoRAs to display at this time.</Text>
        </Stack>
      </Card>
    </Page>
  );
}
