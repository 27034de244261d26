// What the page's buttons do: Generate, Re-rephrase and Retry failed parts in Quick mode, Start in
// Interactive mode. Each checks the form first and says what is missing instead of sending.
import { CONVERT_MESSAGES, newInteractiveState } from '@ownvoice/shared';
import { createFormError } from '../form';
import type { useCreateForm } from './use-create-form';
import type { useCreateRun } from './use-create-run';
import type { useInteractiveSession } from './use-interactive-session';

export interface CreateActionsDeps {
  form: ReturnType<typeof useCreateForm>;
  /** The chosen awake Voice, or null. */
  voiceId: string | null;
  run: ReturnType<typeof useCreateRun>;
  session: ReturnType<typeof useInteractiveSession>;
  onGenerationComplete: () => void;
}

export function useCreateActions({ form, voiceId, run, session, onGenerationComplete }: CreateActionsDeps) {
  const { prompt, setFormError, editPassEnabled } = form;

  /** The Voice, or null after saying one is needed (Re-rephrase and retry need nothing else). */
  const voiceOrComplain = (): string | null => {
    setFormError(voiceId === null ? CONVERT_MESSAGES.selectVoice : null);
    return voiceId;
  };

  const generate = () => {
    const problem = createFormError({ loraId: voiceId, prompt, referenceFile: form.referenceFile });
    if (problem !== null || voiceId === null) {
      setFormError(problem);
      return;
    }
    setFormError(null);
    run.generate({
      loraId: voiceId,
      request: { prompt: prompt.trim(), format: form.format, referenceFile: form.referenceFile },
      editPassEnabled,
      onComplete: onGenerationComplete,
    });
  };

  const rerephrase = () => {
    const loraId = voiceOrComplain();
    if (loraId !== null) run.rerephrase({ loraId, draft: run.draft.draft, editPassEnabled });
  };

  const retryFailed = () => {
    const loraId = voiceOrComplain();
    if (loraId !== null) run.retryFailed(loraId, editPassEnabled);
  };

  const startInteractive = () => {
    const problem = createFormError({ loraId: voiceId, prompt });
    if (problem !== null || voiceId === null) {
      setFormError(problem);
      return;
    }
    setFormError(null);
    void session.act(newInteractiveState(form.length, prompt.trim(), voiceId), 'ask_questions');
  };

  return { generate, rerephrase, retryFailed, startInteractive };
}
