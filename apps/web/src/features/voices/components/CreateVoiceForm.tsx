// The Create New Voice form: name filtered as typed, pasted text, files
// with their character counts, the running total, and every refusal in the shared words. The
// draft lives in the feature's store, so a failed upload brings it back as it was.
import { Alert, Button, Card, Group, Loader, Stack, Text, Textarea, TextInput } from '@mantine/core';
import { VOICE_MESSAGES, VOICE_NAME_MAX, voiceNameSchema } from '@ownvoice/shared';
import { IconAlertCircle, IconSparkles } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { voiceTrainingPath } from '../../../lib/paths';
import {
  addFiles,
  type CreateVoiceState,
  dismissCreateError,
  dismissFileErrors,
  removeFile,
  setName,
  setText,
} from '../create-voice-store';
import { hasEnoughCharacters, totalCharacters } from '../file-selection';
import { useSubmitVoice } from '../hooks/use-submit-voice';
import { CharacterTotal } from './CharacterTotal';
import { EgadModal } from './EgadModal';
import { FilePicker } from './FilePicker';
import { SelectedFilesList } from './SelectedFilesList';

function FileErrors({ messages }: { messages: string[] }) {
  if (messages.length === 0) return null;
  return (
    <Alert
      color="red"
      icon={<IconAlertCircle size={20} />}
      role="alert"
      data-testid="file-errors"
      withCloseButton
      onClose={dismissFileErrors}
      closeButtonLabel="Dismiss"
    >
      <Stack gap={4}>
        {messages.map((message) => (
          <Text key={message} fz="sm" style={{ wordBreak: 'break-word' }}>
            {message}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

export function CreateVoiceForm({ draft }: { draft: CreateVoiceState }) {
  const submit = useSubmitVoice();
  const [nameTouched, setNameTouched] = useState(false);
  const [oversized, setOversized] = useState<string[]>([]);

  const nameValid = voiceNameSchema.safeParse(draft.name).success;
  const counting = draft.files.some((f) => f.charCount === null);
  const total = totalCharacters(
    draft.text,
    draft.files.map((f) => f.charCount),
  );
  const submitting = draft.submission.state === 'submitting';
  const ready = nameValid && hasEnoughCharacters(total) && !counting && !submitting;

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setNameTouched(true);
    if (ready) submit();
  };

  return (
    <Card component="form" onSubmit={onSubmit} aria-label="Create Voice" noValidate data-testid="create-voice-form">
      <Stack gap="lg">
        <ErrorAlert message={draft.createError} onClose={dismissCreateError} />
        {draft.submission.state === 'submitting' && (
          <Alert color="violet" icon={<Loader size={16} />}>
            Your last Voice is still uploading.{' '}
            <Text component={Link} to={voiceTrainingPath(draft.submission.tempId)} span fz="sm" td="underline">
              Follow it
            </Text>
          </Alert>
        )}
        <TextInput
          label="Voice name"
          placeholder="e.g. Blog voice"
          required
          value={draft.name}
          maxLength={VOICE_NAME_MAX}
          onChange={(event) => setName(event.currentTarget.value)}
          onBlur={() => setNameTouched(true)}
          error={nameTouched && !nameValid ? VOICE_MESSAGES.nameRequired : undefined}
          description="Letters, numbers, spaces, _ and -"
          data-testid="create-voice-name"
        />
        <Textarea
          label="Paste your writing"
          placeholder="Blog posts, newsletters, emails… anything you wrote yourself."
          value={draft.text}
          onChange={(event) => setText(event.currentTarget.value)}
          autosize
          minRows={6}
          maxRows={14}
          // One count on the page: the total below, counted as training counts.
          description="Counted with your files in the total below"
          error={draft.textTruncated ? VOICE_MESSAGES.pastedTooLong : undefined}
          data-testid="create-voice-text"
        />
        <Stack gap="sm">
          <Text fw={500} fz="sm">
            Or upload files
          </Text>
          <FilePicker onFiles={(files) => setOversized(addFiles(files))} disabled={submitting} />
          <FileErrors messages={draft.fileErrors} />
          <SelectedFilesList files={draft.files} onRemove={removeFile} />
        </Stack>
        <CharacterTotal total={total} counting={counting} />
        <Group justify="flex-end">
          <Button
            type="submit"
            size="md"
            disabled={!ready}
            loading={submitting}
            leftSection={<IconSparkles size={18} />}
            data-testid="create-voice-submit"
          >
            Create Voice
          </Button>
        </Group>
      </Stack>
      <EgadModal fileNames={oversized} onClose={() => setOversized([])} />
    </Card>
  );
}
