// The invited address has an account that is not the one signed in here: sign in as it, then
// come back to this page to accept.
import { Alert, Button, Stack, Text } from '@mantine/core';
import { IconLogin } from '@tabler/icons-react';
import { Link } from 'react-router';
import { authPath, invitationPath } from '../../../lib/paths';

export interface InvitationSignInPromptProps {
  token: string;
  email: string;
  /** Who is signed in instead, if anyone. */
  signedInAs: string | null;
}

export function InvitationSignInPrompt({ token, email, signedInAs }: InvitationSignInPromptProps) {
  return (
    <Stack gap="md" data-testid="invitation-sign-in">
      <Alert color="blue" icon={<IconLogin size={20} />}>
        {signedInAs ? (
          <Text fz="sm">
            You are signed in as {signedInAs}, but this invitation is for {email}. Log in as {email} to accept it.
          </Text>
        ) : (
          <Text fz="sm">An account with {email} already exists. Log in to it to accept the invitation.</Text>
        )}
      </Alert>
      <Button component={Link} to={authPath('login', invitationPath(token))} leftSection={<IconLogin size={18} />}>
        Log in as {email}
      </Button>
    </Stack>
  );
}
