// The Create form: the mode (Interactive when a saved session waits, so a reload resumes it), the
// interactive length, the prompt, Quick mode's format, reference file and edit-pass box, and the
// form's error, which changing the mode, the Voice, the prompt or the file clears. What the page
// kept across a checkout or reload (kept-create.ts) is where it starts.
import { type ContentFormat, type InteractiveMode, MAX_PROMPT_CHARS } from '@ownvoice/shared';
import { useState } from 'react';
import { useEditPass } from '../../../lib/rewrite/use-edit-pass';
import { browserStorage } from '../../../lib/session/browser-storage';
import { referenceFileError } from '../form';
import { loadInteractiveState } from '../interactive-storage';
import type { KeptCreateForm } from '../kept-create';

export type CreateMode = 'quick' | 'interactive';

/** A saved interactive session (long first) decides where the screen opens, so a reload resumes it. */
function savedLength(userId: string): InteractiveMode | null {
  const storage = browserStorage();
  if (!storage) return null;
  if (loadInteractiveState(storage, userId, 'long')) return 'long';
  if (loadInteractiveState(storage, userId, 'short')) return 'short';
  return null;
}

export function useCreateForm(userId: string, chooseVoiceId: (id: string | null) => void, kept: KeptCreateForm | null) {
  const [initialLength] = useState(() => savedLength(userId));
  const [mode, setMode] = useState<CreateMode>(initialLength ? 'interactive' : (kept?.mode ?? 'quick'));
  const [length, setLength] = useState<InteractiveMode>(initialLength ?? kept?.length ?? 'short');
  const [prompt, setPrompt] = useState(kept?.prompt ?? '');
  const [format, setFormat] = useState<ContentFormat>(kept?.format ?? 'free');
  const [referenceFile, setReferenceFile] = useState<File | null>(null);
  const [formError, setFormError] = useState<string | null>(null);
  const { editPass, setEditPass, editPassEnabled } = useEditPass(kept?.editPass ?? false);

  return {
    mode,
    chooseMode: (next: CreateMode) => {
      setMode(next);
      setFormError(null);
    },
    length,
    setLength,
    prompt,
    /** Sets the prompt as is (the quickstart's sample). */
    setPrompt,
    /** What the person typed, cut at the limit. */
    typePrompt: (value: string) => {
      setPrompt(value.slice(0, MAX_PROMPT_CHARS));
      setFormError(null);
    },
    format,
    setFormat,
    referenceFile,
    chooseFile: (file: File | null) => {
      setReferenceFile(file);
      setFormError(file ? referenceFileError(file) : null);
    },
    chooseVoice: (id: string | null) => {
      chooseVoiceId(id);
      setFormError(null);
    },
    formError,
    setFormError,
    clearError: () => setFormError(null),
    editPass,
    setEditPass,
    editPassEnabled,
  };
}
