// The e-mail notices: a switch for each, saved the moment it flips, with "Saving…", then "Saved"
// beside the heading, or what failed. The ones that protect the account or its money are always
// sent, shown on and not switchable.
import { Badge, Card, Group, Loader, Stack, Switch, Text, Title } from '@mantine/core';
import { IconBell, IconCheck } from '@tabler/icons-react';
import { useId } from 'react';
import { ErrorAlert } from '../../../components/ErrorAlert';
import { type NoticeSaveState, useNoticeSettings } from '../hooks/use-notice-settings';
import { NOTICE_MESSAGES, type NoticeSwitch } from '../notice-switches';

function SaveStatus({ state }: { state: NoticeSaveState }) {
  return (
    <Text component="div" fz="sm" role="status" c="dimmed" data-testid="notices-status" data-state={state.kind}>
      {state.kind === 'saving' && (
        <Group gap={6} wrap="nowrap">
          <Loader size={14} aria-hidden="true" />
          {NOTICE_MESSAGES.saving}
        </Group>
      )}
      {state.kind === 'saved' && (
        <Group gap={4} wrap="nowrap" c="teal">
          <IconCheck size={16} aria-hidden="true" />
          {state.message}
        </Group>
      )}
    </Text>
  );
}

function NoticeRow({ notice, onChange }: { notice: NoticeSwitch; onChange: (key: string, on: boolean) => void }) {
  const id = useId();
  const labelId = `${id}-label`;
  const requiredId = `${id}-required`;
  const descriptionId = `${id}-description`;
  return (
    <Switch
      checked={notice.on}
      disabled={notice.required}
      onChange={(event) => onChange(notice.key, event.currentTarget.checked)}
      // Named by the label (and "Always sent"), described by the description: without these the
      // whole row, description included, would be the switch's name.
      aria-labelledby={notice.required ? `${labelId} ${requiredId}` : labelId}
      aria-describedby={descriptionId}
      label={
        <>
          <span id={labelId}>{notice.label}</span>
          {notice.required && (
            <Badge component="span" id={requiredId} color="gray" size="sm" ml={8}>
              Always sent
            </Badge>
          )}
        </>
      }
      description={<span id={descriptionId}>{notice.description}</span>}
      // An always-sent notice cannot be switched, but its name stays as readable as the others'.
      styles={notice.required ? { label: { color: 'inherit', cursor: 'default' } } : undefined}
      data-testid={`notice-${notice.key}`}
    />
  );
}

export function NoticesCard() {
  const notices = useNoticeSettings();
  return (
    <Card data-testid="notices-card">
      <Group justify="space-between" gap="xs" mb="sm">
        <Group gap="xs">
          <IconBell size={20} aria-hidden="true" />
          <Title order={2} fz="lg">
            E-mail notices
          </Title>
        </Group>
        <SaveStatus state={notices.state} />
      </Group>
      <Text fz="sm" c="dimmed" mb="md">
        What we e-mail you about. A change is saved as soon as you make it.
      </Text>
      <Stack gap="md">
        <ErrorAlert
          message={notices.state.kind === 'failed' ? notices.state.message : null}
          onClose={notices.clearFailure}
        />
        {notices.switches.map((notice) => (
          <NoticeRow key={notice.key} notice={notice} onChange={(key, on) => void notices.change(key, on)} />
        ))}
      </Stack>
    </Card>
  );
}
