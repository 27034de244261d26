// Before a button that needs a confirmed address (the trial, accepting an admin invitation): what
// to do, with "Send again" for a new link. See lib/session/use-confirmation-gate.
import { Alert, Stack, Text } from '@mantine/core';
import { IconMailExclamation } from '@tabler/icons-react';
import { ResendConfirmationButton } from './ResendConfirmationButton';

export function EmailConfirmationAlert({ notice }: { notice: string | null }) {
  if (!notice) return null;
  return (
    <Alert
      color="orange"
      icon={<IconMailExclamation size={20} />}
      role="status"
      ta="left"
      w="100%"
      data-testid="email-not-confirmed"
    >
      <Stack gap="sm" align="flex-start">
        <Text fz="sm">{notice}</Text>
        <ResendConfirmationButton />
      </Stack>
    </Alert>
  );
}
