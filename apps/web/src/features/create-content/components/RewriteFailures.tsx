// Says when parts of the rewrite did not come out in the Voice (each shows its error marker in
// place of a rewrite), whether the short content was charged, and offers to retry just those
// parts. When no part came out, the server gave the short content back (shared's rewriteIsUsable).
import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle, IconRefresh } from '@tabler/icons-react';
import { type ConversionState, failedChunkIndexes, hasUsableRewrite } from '../../../lib/rewrite/conversion';

export function RewriteFailures({ rewrite, onRetry }: { rewrite: ConversionState; onRetry: () => void }) {
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
          ? 'Your Voice could not rewrite this draft'
          : `${failed} of ${total} parts could not be rewritten in your Voice`
      }
      data-testid="create-rewrite-failures"
    >
      <Group justify="space-between" gap="sm" align="center">
        <Text fz="sm">
          {none
            ? 'No part came out in your Voice, so nothing was charged for it. Retry those parts, or generate again.'
            : 'Those parts show an error in place of a rewrite. Retry just them; the rest stays as it is.'}
        </Text>
        <Button
          size="compact-sm"
          leftSection={<IconRefresh size={16} />}
          onClick={onRetry}
          data-testid="create-retry-failed"
        >
          Retry failed parts
        </Button>
      </Group>
    </Alert>
  );
}
