// The card at the top of Create: the mode, the Voice, the prompt and, in Quick mode, the format,
// the reference file, the edit-pass box and Generate.
import { Button, Card, Checkbox, FileInput, Group, SegmentedControl, Select, Stack, Textarea } from '@mantine/core';
import {
  CONTENT_FORMAT_LABELS,
  CONTENT_FORMATS,
  type ContentFormat,
  MAX_PROMPT_CHARS,
  VOICE_FILE_EXTENSIONS,
} from '@ownvoice/shared';
import { IconFileText, IconSparkles } from '@tabler/icons-react';
import { AwakeVoicesNotice } from '../../../components/AwakeVoicesNotice';
import { VoicePicker } from '../../../components/VoicePicker';
import type { useVoiceChoice } from '../../../lib/voice-choice';
import { CREATE_ERRORS } from '../constants';
import type { CreateMode, useCreateForm } from '../hooks/use-create-form';

const MODES: { value: CreateMode; label: string }[] = [
  { value: 'quick', label: 'Quick' },
  { value: 'interactive', label: 'Interactive' },
];

const FORMAT_OPTIONS = CONTENT_FORMATS.map((format) => ({ value: format, label: CONTENT_FORMAT_LABELS[format] }));

export interface CreateFormProps {
  form: ReturnType<typeof useCreateForm>;
  voices: ReturnType<typeof useVoiceChoice>;
  /** An interactive session is under way: its Voice and prompt are fixed. */
  sessionRunning: boolean;
  generateLabel: string;
  generateDisabled: boolean;
  onGenerate: () => void;
}

export function CreateForm({
  form,
  voices,
  sessionRunning,
  generateLabel,
  generateDisabled,
  onGenerate,
}: CreateFormProps) {
  const { awake, query: voicesQuery, selectedId } = voices;
  const { prompt } = form;
  return (
    <Card padding="lg">
      <Stack gap="sm">
        <SegmentedControl
          value={form.mode}
          onChange={(value) => form.chooseMode(value as CreateMode)}
          data={MODES}
          style={{ alignSelf: 'flex-start' }}
          data-testid="create-mode"
        />
        <VoicePicker
          awake={awake}
          loading={voicesQuery.isPending}
          value={selectedId}
          onChange={form.chooseVoice}
          disabled={sessionRunning}
          testId="create-voice-select"
        />
        <AwakeVoicesNotice
          noAwakeVoices={voicesQuery.isSuccess && awake.length === 0}
          testId="create-no-voices"
          error={voicesQuery.isError ? voicesQuery.error : null}
          fallbackError={CREATE_ERRORS.fetchVoicesFailed}
          onRetry={() => void voicesQuery.refetch()}
        />
        <Textarea
          label="Prompt"
          description={`${prompt.length.toLocaleString('en-US')} / ${MAX_PROMPT_CHARS.toLocaleString('en-US')} characters`}
          placeholder="What should be written? Topic, audience, points to make, tone…"
          value={prompt}
          onChange={(event) => form.typePrompt(event.currentTarget.value)}
          maxLength={MAX_PROMPT_CHARS}
          autosize
          minRows={3}
          maxRows={12}
          required
          disabled={sessionRunning}
          data-testid="create-prompt"
        />
        {form.mode === 'quick' && (
          <>
            <Group align="flex-end" gap="md" wrap="wrap">
              <Select
                label="Format"
                data={FORMAT_OPTIONS}
                value={form.format}
                onChange={(value) => form.setFormat((value as ContentFormat | null) ?? 'free')}
                allowDeselect={false}
                style={{ flex: '1 1 200px' }}
                data-testid="create-format"
              />
              <FileInput
                label="Reference file (optional)"
                placeholder="Pick a file"
                accept={VOICE_FILE_EXTENSIONS.join(',')}
                value={form.referenceFile}
                onChange={form.chooseFile}
                clearable
                leftSection={<IconFileText size={16} />}
                style={{ flex: '1 1 200px', minWidth: 0 }}
                data-testid="create-reference"
              />
            </Group>
            <Group align="center" justify="space-between" gap="md" wrap="wrap">
              <Checkbox
                label="Edit pass"
                description="Proofread the rewrite against the draft"
                checked={form.editPass}
                onChange={(event) => form.setEditPass(event.currentTarget.checked)}
                data-testid="create-edit-pass"
              />
              <Button
                onClick={onGenerate}
                disabled={generateDisabled}
                leftSection={<IconSparkles size={18} />}
                data-testid="create-generate"
              >
                {generateLabel}
              </Button>
            </Group>
          </>
        )}
      </Stack>
    </Card>
  );
}
