// Rename: the new name is filtered as typed with the shared rule; a blank one is ignored.
import { Button, Group, Stack, TextInput } from '@mantine/core';
import { filterVoiceNameInput, VOICE_NAME_MAX, type Voice } from '@ownvoice/shared';
import { type FormEvent, useState } from 'react';
import { Dialog } from '../../../components/Dialog';

export interface RenameVoiceModalProps {
  voice: Voice | null;
  onRename: (voice: Voice, name: string) => void;
  onClose: () => void;
}

function RenameForm({ voice, onRename, onClose }: { voice: Voice } & Omit<RenameVoiceModalProps, 'voice'>) {
  const [name, setName] = useState(voice.name);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onRename(voice, name);
    onClose();
  };
  return (
    <form onSubmit={submit} aria-label="Rename Voice">
      <Stack gap="lg">
        <TextInput
          label="New name"
          value={name}
          onChange={(event) => setName(filterVoiceNameInput(event.currentTarget.value))}
          maxLength={VOICE_NAME_MAX}
          description="Letters, numbers, spaces, _ and -"
          data-autofocus
        />
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit">Save</Button>
        </Group>
      </Stack>
    </form>
  );
}

export function RenameVoiceModal({ voice, onRename, onClose }: RenameVoiceModalProps) {
  return (
    <Dialog opened={voice !== null} onClose={onClose} title="Rename Voice" centered>
      {/* Keyed by Voice, so each opening starts from that Voice's current name. */}
      {voice && <RenameForm key={voice._id} voice={voice} onRename={onRename} onClose={onClose} />}
    </Dialog>
  );
}
