// Says when parts of a rewrite did not come out in the Voice (each shows its error marker in place
// of a rewrite, in both views) and offers to retry just those parts. Convert and Create's quick
// mode show it; each says what an all-failed rewrite cost (`allFailedNote`).
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { type ConversionState, failedChunkIndexes, hasUsableRewrite } from '../lib/rewrite/conversion';

export interface RewriteFailuresProps {
  rewrite: ConversionState;
  onRetry: () => void;
  /** What was rewritten, as the title names it: "draft", "text". */
  subject: string;
  /** What to say when no part came out. */
  allFailedNote: string;
}

export function RewriteFailures({ rewrite, onRetry, subject, allFailedNote }: RewriteFailuresProps) {
  const failed = failedChunkIndexes(rewrite).length;
  if (failed === 0) return null;
  const none = !hasUsableRewrite(rewrite);
  const total = rewrite.chunks.length;
  return (
    <Alert
      color={none ? 'red' : 'orange'}
      variant="light"
      icon={<IconAlertTriangle size={20} />}
      title={
        none
          ? `Your Voice could not rewrite this ${subject}`
          : `${failed} of ${total} parts could not be rewritten in your Voice`
      }
      data-testid="rewrite-failures"
    >
      <Group justify="space-between" gap="sm" align="center">
        <Text fz="sm">
          {none
            ? allFailedNote
            : 'Those parts show an error in place of a rewrite. Retry just them; the rest stays as it is.'}
        </Text>
        <Button
          size="compact-sm"
          leftSection={<IconRefresh size={16} />}
          onClick={onRetry}
          data-testid="retry-failed-parts"
        >
          Retry failed parts
        </Button>
      </Group>
    </Alert>
  );
}
