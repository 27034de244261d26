// The dashboard's questions before acting: rename, delete, and the visibility change.
import type { Voice } from '@ownvoice/shared';
import { ConfirmDialog } from '../../../components/ConfirmDialog';
import { RenameVoiceModal } from './RenameVoiceModal';

export type VoiceDialog = { kind: 'rename' | 'delete' | 'visibility'; voice: Voice } | null;

export interface VoiceDialogsProps {
  dialog: VoiceDialog;
  onClose: () => void;
  onRename: (voice: Voice, name: string) => void;
  onDelete: (voice: Voice) => void;
  onSetVisibility: (voice: Voice, isPublic: boolean) => void;
}

export function VoiceDialogs({ dialog, onClose, onRename, onDelete, onSetVisibility }: VoiceDialogsProps) {
  const voice = dialog?.voice;
  const makingPublic = voice ? !voice.isPublic : false;
  return (
    <>
      <RenameVoiceModal voice={dialog?.kind === 'rename' ? dialog.voice : null} onRename={onRename} onClose={onClose} />
      <ConfirmDialog
        opened={dialog?.kind === 'delete'}
        title="Delete this Voice?"
        confirmLabel="Delete"
        danger
        onCancel={onClose}
        onConfirm={() => {
          if (voice) onDelete(voice);
          onClose();
        }}
      >
        “{voice?.name}” will be deleted for good. This cannot be undone.
      </ConfirmDialog>
      <ConfirmDialog
        opened={dialog?.kind === 'visibility'}
        title={makingPublic ? 'Make this Voice public?' : 'Make this Voice private?'}
        confirmLabel={makingPublic ? 'Make Public' : 'Make Private'}
        onCancel={onClose}
        onConfirm={() => {
          if (voice) onSetVisibility(voice, makingPublic);
          onClose();
        }}
      >
        {makingPublic
          ? `Everyone signed in will see “${voice?.name}” among the Public Voices and can fork a private copy of it.`
          : `“${voice?.name}” will no longer be listed among the Public Voices. Copies already forked stay with their owners.`}
      </ConfirmDialog>
    </>
  );
}
