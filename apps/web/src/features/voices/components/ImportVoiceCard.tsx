// "Bring a Voice": a package downloaded from another OwnVoice (the service, or the offline app)
// becomes a Voice here without training, if this OwnVoice runs the same base model.
import { Button, Card, FileButton, Stack, Text, Title } from '@mantine/core';
import { IconFileImport } from '@tabler/icons-react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { errorMessage } from '../../../lib/api-error';
import { useImportVoice } from '../hooks/use-voice-package';

export function ImportVoiceCard() {
  const { importFile, pending, error } = useImportVoice();
  return (
    <Card data-testid="import-voice">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          Bring a Voice you trained elsewhere
        </Title>
        <Text fz="sm" c="dimmed">
          Downloaded a Voice from its page in another OwnVoice? Import the .zip here: it takes a storage slot, not a
          training, and works when both run the same base model.
        </Text>
        <FileButton onChange={(file) => file && importFile(file)} accept=".zip,application/zip">
          {(props) => (
            <Button {...props} variant="light" loading={pending} leftSection={<IconFileImport size={18} />}>
              Import a Voice package
            </Button>
          )}
        </FileButton>
        {error && <ErrorAlert message={errorMessage(error, 'The import failed. Please try again.')} />}
      </Stack>
    </Card>
  );
}
