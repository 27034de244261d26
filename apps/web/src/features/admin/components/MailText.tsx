// One message's text, opened beneath its row: asked for only now (the server records the reading
// in its person's log), with its links' keys masked by the server, which this says in words.
import { Code, Loader, Stack, Text } from '@mantine/core';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useAdminMailText } from '../hooks/use-admin-data';
import { maskedNote, READ_RECORDED } from '../mail-view';

export function MailText({ id }: { id: string }) {
  const { data, error, isPending } = useAdminMailText(id);
  if (error) return <ErrorAlert message={errorMessage(error, 'Failed to load the message')} />;
  if (isPending) return <Loader size="sm" aria-label="Loading the message" />;
  return (
    <Stack gap={4}>
      <Code block style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}>
        {data.text}
      </Code>
      {data.masked && (
        <Text fz="xs" c="gray.7" data-testid="admin-mail-masked">
          {maskedNote(data.file)}
        </Text>
      )}
      <Text fz="xs" c="gray.7">
        {READ_RECORDED}
      </Text>
    </Stack>
  );
}
