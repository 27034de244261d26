// Choosing files: a button, or dropping them on the box. Which ones are taken is decided by the
// store's rules, not here.
import { Button, FileButton, Paper, Stack, Text } from '@mantine/core';
import { VOICE_FILE_EXTENSIONS } from '@ownvoice/shared';
import { IconUpload } from '@tabler/icons-react';
import { type DragEvent, useRef, useState } from 'react';

/** .htm is accepted as .html (shared hasAcceptedExtension). */
const ACCEPT = [...VOICE_FILE_EXTENSIONS, '.htm'].join(',');

export function FilePicker({ onFiles, disabled }: { onFiles: (files: File[]) => void; disabled?: boolean }) {
  const resetRef = useRef<() => void>(null);
  const [dragging, setDragging] = useState(false);

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    if (!disabled) onFiles(Array.from(event.dataTransfer.files));
  };

  return (
    <Paper
      withBorder
      p="lg"
      onDragOver={(event) => {
        event.preventDefault();
        setDragging(true);
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={onDrop}
      style={{
        borderStyle: 'dashed',
        borderWidth: 2,
        background: dragging ? 'var(--mantine-color-violet-0)' : undefined,
      }}
      data-testid="file-drop"
    >
      <Stack align="center" gap="xs" ta="center">
        <IconUpload size={28} aria-hidden="true" />
        <Text fz="sm">Drop files here, or</Text>
        <FileButton
          multiple
          accept={ACCEPT}
          resetRef={resetRef}
          disabled={disabled}
          onChange={(files) => {
            onFiles(files);
            // Choosing the same file again after removing it must fire again.
            resetRef.current?.();
          }}
        >
          {(props) => (
            <Button {...props} variant="light" disabled={disabled}>
              Choose files
            </Button>
          )}
        </FileButton>
        <Text fz="xs" c="dimmed">
          {VOICE_FILE_EXTENSIONS.join(', ')} · up to 10 MB each, 50 MB in total
        </Text>
      </Stack>
    </Paper>
  );
}
