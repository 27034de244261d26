// E-mail on the overview: where messages go (a mail server, or the data folder's outbox), how many
// failed, and the newest messages with Retry for a failed one (mail-view.ts says it in words).
import { Badge, Card, Group, Loader, Stack, Text, Title } from '@mantine/core';
import { IconMail } from '@tabler/icons-react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useAdminMail } from '../hooks/use-admin-data';
import { useRetryMail } from '../hooks/use-retry-mail';
import { destinationLine, failedBadge } from '../mail-view';
import { MailTable } from './MailTable';

export function MailCard() {
  const { data, error, isPending } = useAdminMail();
  const { retry, pendingId } = useRetryMail();
  const badge = data ? failedBadge(data.failed) : null;

  return (
    <Card padding="md" data-testid="admin-mail">
      <Group justify="space-between" mb="sm">
        <Group gap="xs">
          <IconMail size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            E-mail
          </Title>
        </Group>
        {badge && (
          <Badge variant="light" color={badge.color} data-testid="admin-mail-failed">
            {badge.label}
          </Badge>
        )}
      </Group>
      {error ? <ErrorAlert message={errorMessage(error, 'Failed to load the e-mail messages')} /> : null}
      {isPending && <Loader size="sm" aria-label="Loading e-mail messages" />}
      {data && (
        <Stack gap="sm">
          <Stack gap={2}>
            <Text fz="sm" data-testid="admin-mail-destination">
              {destinationLine(data)}
            </Text>
            {data.outbox && (
              <Text fz="xs" c="gray.7">
                Written to {data.destination}.
              </Text>
            )}
          </Stack>
          <MailTable messages={data.messages} outbox={data.outbox} onRetry={retry} retryingId={pendingId} />
        </Stack>
      )}
    </Card>
  );
}
