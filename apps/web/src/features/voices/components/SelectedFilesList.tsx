// The chosen files, each with the character count the server found in it and a remove button.
import { ActionIcon, Group, Loader, Paper, Stack, Text } from '@mantine/core';
import { IconFileText, IconX } from '@tabler/icons-react';
import { formatCount, formatFileSize } from '../../../lib/format';
import type { SelectedFile } from '../create-voice-store';

export function SelectedFilesList({ files, onRemove }: { files: SelectedFile[]; onRemove: (id: string) => void }) {
  if (files.length === 0) return null;
  return (
    <Stack gap="xs" data-testid="file-list">
      {files.map(({ id, file, charCount }) => (
        <Paper key={id} withBorder p="xs" px="sm" data-testid="file-row" data-counted={charCount !== null}>
          <Group gap="sm" wrap="nowrap">
            <IconFileText size={20} style={{ flexShrink: 0 }} aria-hidden="true" />
            <Stack gap={0} style={{ minWidth: 0, flex: 1 }}>
              <Text fz="sm" fw={500} truncate="end" title={file.name}>
                {file.name}
              </Text>
              <Group gap={4} wrap="wrap" fz="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
                <span>{formatFileSize(file.size)} ·</span>
                {charCount === null ? (
                  <Group gap={4} wrap="nowrap">
                    <Loader size={10} />
                    <span>counting</span>
                  </Group>
                ) : (
                  <span data-testid="file-characters">{formatCount(charCount)} characters</span>
                )}
              </Group>
            </Stack>
            <ActionIcon variant="subtle" color="gray" aria-label={`Remove ${file.name}`} onClick={() => onRemove(id)}>
              <IconX size={18} />
            </ActionIcon>
          </Group>
        </Paper>
      ))}
    </Stack>
  );
}
