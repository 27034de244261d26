// Copy with feedback: the label reads Copied for COPIED_FEEDBACK_MS, then Copy again.
import { Button, CopyButton } from '@mantine/core';
import { COPIED_FEEDBACK_MS } from '@ownvoice/shared';
import { IconCheck, IconCopy } from '@tabler/icons-react';

export function CopyTextButton({
  value,
  testId,
  disabled = false,
}: {
  value: string;
  testId: string;
  disabled?: boolean;
}) {
  return (
    <CopyButton value={value} timeout={COPIED_FEEDBACK_MS}>
      {({ copied, copy }) => (
        <Button
          size="compact-sm"
          variant="light"
          color={copied ? 'teal' : undefined}
          leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
          onClick={copy}
          disabled={disabled || value === ''}
          data-testid={testId}
        >
          {copied ? 'Copied' : 'Copy'}
        </Button>
      )}
    </CopyButton>
  );
}
