// The base model a Voice was trained on, on its page: the fact itself, and a notice when this
// server runs another model (the Voice will not wake here) or the Voice's base was not recorded
// (decision 31).
import { Alert, Stack, Text } from '@mantine/core';
import { describeBaseModel, VOICE_BASE_MODEL_MESSAGES, type VoiceBaseModel } from '@ownvoice/shared';
import { IconAlertTriangle, IconQuestionMark } from '@tabler/icons-react';

/** The Voice's base model, for its facts: its name, then its file and the start of its SHA-256. */
export function BaseModelFact({ baseModel }: { baseModel: VoiceBaseModel | null | undefined }) {
  if (!baseModel) return <>Chosen when its training starts</>;
  if (baseModel.state === 'unknown') {
    return (
      <Stack gap={0}>
        <span>Not recorded</span>
        {baseModel.file && (
          <Text component="span" fz="xs" c="dimmed">
            Its files name {baseModel.file}
          </Text>
        )}
      </Stack>
    );
  }
  const file = baseModel.file !== baseModel.name ? baseModel.file : null;
  return (
    <Stack gap={0}>
      <span>{baseModel.name ?? baseModel.file}</span>
      <Text component="span" fz="xs" c="dimmed">
        {file}
        {file && baseModel.sha256 && ', '}
        {baseModel.sha256 && (
          <abbr title={`SHA-256 ${baseModel.sha256}`} style={{ textDecoration: 'none' }}>
            SHA-256 {baseModel.sha256.slice(0, 12)}…
          </abbr>
        )}
      </Text>
    </Stack>
  );
}

/** What the owner must know before waking it: another model runs here, or its base is unknown. */
export function BaseModelNotice({ baseModel }: { baseModel: VoiceBaseModel | null | undefined }) {
  if (!baseModel) return null;
  const ours = baseModel.serverModel ?? 'another base model';
  if (baseModel.onThisServer === 'other') {
    const message =
      baseModel.state === 'recorded'
        ? VOICE_BASE_MODEL_MESSAGES.otherBaseModel(
            describeBaseModel(baseModel),
            ours,
            baseModel.name ?? baseModel.file ?? 'its base model',
          )
        : VOICE_BASE_MODEL_MESSAGES.otherBaseModelFile(baseModel.file ?? 'another model', ours);
    return (
      <Alert
        color="red"
        icon={<IconAlertTriangle size={20} aria-hidden />}
        title="Trained on another base model"
        data-testid="base-model-other"
      >
        <Text fz="sm">{message}</Text>
      </Alert>
    );
  }
  if (baseModel.state === 'unknown') {
    return (
      <Alert
        color="yellow"
        role="status"
        icon={<IconQuestionMark size={20} aria-hidden />}
        title="Base model not recorded"
        data-testid="base-model-unknown"
      >
        <Text fz="sm">{VOICE_BASE_MODEL_MESSAGES.unknown(baseModel.serverModel)}</Text>
      </Alert>
    );
  }
  return null;
}
