// "Send again" for the confirmation link, with the server's answer beside it in a live region:
// what to look for once it went out, or why it did not (too many links in a short time).
import { Button, type ButtonProps, Group, Text } from '@mantine/core';
import { IconSend } from '@tabler/icons-react';
import { useResendConfirmation } from '../lib/session/use-resend-confirmation';

export interface ResendConfirmationButtonProps {
  label?: string;
  size?: ButtonProps['size'];
  variant?: ButtonProps['variant'];
  color?: ButtonProps['color'];
}

export function ResendConfirmationButton({
  label = 'Send again',
  size = 'compact-sm',
  variant = 'light',
  color,
}: ResendConfirmationButtonProps) {
  const resend = useResendConfirmation();
  return (
    <Group gap="xs" wrap="wrap" align="center">
      <Button
        size={size}
        variant={variant}
        color={color}
        leftSection={<IconSend size={14} aria-hidden="true" />}
        onClick={resend.send}
        loading={resend.pending}
        data-testid="resend-confirmation"
      >
        {label}
      </Button>
      <Text
        component="span"
        fz="sm"
        role="status"
        c={resend.failed ? 'red' : undefined}
        fw={resend.failed ? 600 : undefined}
        data-testid="resend-confirmation-status"
      >
        {resend.failed ?? resend.sent ?? ''}
      </Text>
    </Group>
  );
}
