// An invitation that cannot be accepted (used, expired, unknown, or not loaded): says so and what to do.
import { Alert, Button, Stack } from '@mantine/core';
import { IconAlertTriangle, IconHome } from '@tabler/icons-react';
import { Link } from 'react-router';
import { PATHS } from '../../../lib/paths';

export function InvitationUnavailable({ message }: { message: string }) {
  return (
    <Stack gap="md" data-testid="invitation-unavailable">
      <Alert color="orange" icon={<IconAlertTriangle size={20} />} title="This invitation cannot be used">
        {message}
      </Alert>
      <Button component={Link} to={PATHS.home} variant="default" leftSection={<IconHome size={18} />}>
        Go to the home page
      </Button>
    </Stack>
  );
}
