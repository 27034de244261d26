// Admins without two-factor see that it is required before admin functions answer.
import { Alert, Anchor } from '@mantine/core';
import { MFA_MESSAGES } from '@ownvoice/shared';
import { IconAlertTriangle } from '@tabler/icons-react';
import { Link } from 'react-router';

export function AdminMfaWarning() {
  return (
    <Alert
      color="orange"
      icon={<IconAlertTriangle size={20} />}
      title={MFA_MESSAGES.adminRequired}
      data-testid="admin-mfa-warning"
    >
      As an admin, {MFA_MESSAGES.adminRequiredDetail}.{' '}
      <Anchor component={Link} to="/dashboard/account">
        Set up two-factor on your account page
      </Anchor>
      .
    </Alert>
  );
}
