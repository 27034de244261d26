// Says when parts of a rewrite did not come out in the Voice (each shows its error marker in place
// of a rewrite, in both views) and offers to retry just those parts. Convert and Create's quick
// mode show it; each says what an all-failed rewrite cost (`allFailedNote`). Interactive writing
// shows the same alert from the server's count (`RewriteFailuresAlert`).
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

export function RewriteFailures({ rewrite, ...rest }: RewriteFailuresProps) {
  return (
    <RewriteFailuresAlert
      failed={failedChunkIndexes(rewrite).length}
      total={rewrite.chunks.length}
      none={!hasUsableRewrite(rewrite)}
      {...rest}
    />
  );
}

export interface RewriteFailuresAlertProps extends Omit<RewriteFailuresProps, 'rewrite'> {
  /** Parts that did not come out in the Voice, of `total`. */
  failed: number;
  total: number;
  /** Whether no part came out at all. */
  none: boolean;
  /** What the failed parts show meanwhile. */
  shownInstead?: string;
  /** A retry under way. */
  retrying?: boolean;
}

export function RewriteFailuresAlert({
  failed,
  total,
  none,
  onRetry,
  subject,
  allFailedNote,
  shownInstead = 'an error',
  retrying = false,
}: RewriteFailuresAlertProps) {
  if (failed === 0) return null;
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
            : `Those parts show ${shownInstead} in place of a rewrite. Retry just them; the rest stays as it is.`}
        </Text>
        <Button
          size="compact-sm"
          leftSection={<IconRefresh size={16} />}
          onClick={onRetry}
          loading={retrying}
          data-testid="retry-failed-parts"
        >
          Retry failed parts
        </Button>
      </Group>
    </Alert>
  );
}
