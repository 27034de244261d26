// The Convert form: the editor (read and filled through its handle), whether it holds any text
// (the quickstart shows only while it does not), the edit-pass box and the form's error. `submit`
// needs a Voice and some text before it starts a conversion; `retryFailed` needs a Voice.
import { CONVERT_MESSAGES } from '@ownvoice/shared';
import { useCallback, useRef, useState } from 'react';
import { useEditPass } from '../../../lib/rewrite/use-edit-pass';
import type { MarkdownEditorHandle } from '../components/MarkdownEditor';
import { SAMPLE_TEXT } from '../constants';
import type { StartConversion } from './use-conversion';

export interface ConvertFormDeps {
  selectedId: string | null;
  choose(id: string | null): void;
  start(conversion: StartConversion): void;
  /** Rewrites the failed chunks of the last conversion again. */
  retry(loraId: string, editPassEnabled: () => boolean): void;
  /** Called when a conversion completed (the onboarding's step may move on). */
  onComplete(): void;
  /** What the page kept across a checkout or reload: the editor opens with it. */
  kept: { text: string; editPass: boolean } | null;
}

export function useConvertForm({ selectedId, choose, start, retry, onComplete, kept }: ConvertFormDeps) {
  const editorRef = useRef<MarkdownEditorHandle>(null);
  const [initialText] = useState(kept?.text ?? '');
  const [textIsBlank, setTextIsBlank] = useState(initialText.trim() === '');
  const [formError, setFormError] = useState<string | null>(null);
  const { editPass, setEditPass, editPassEnabled } = useEditPass(kept?.editPass ?? false);
  /** The editor's markdown; what it opens with until it has loaded. */
  const readText = useCallback(() => editorRef.current?.getMarkdown() ?? initialText, [initialText]);

  const chooseVoice = (id: string | null) => {
    setFormError(null);
    choose(id);
  };

  const submit = useCallback(() => {
    if (selectedId === null) {
      setFormError(CONVERT_MESSAGES.selectVoice);
      return;
    }
    const text = readText();
    if (text.trim() === '') {
      setFormError(CONVERT_MESSAGES.emptyText);
      return;
    }
    setFormError(null);
    start({ loraId: selectedId, text, editPassEnabled, onComplete });
  }, [selectedId, start, onComplete, editPassEnabled, readText]);

  const retryFailed = () => {
    setFormError(selectedId === null ? CONVERT_MESSAGES.selectVoice : null);
    if (selectedId !== null) retry(selectedId, editPassEnabled);
  };

  const fillSample = () => {
    editorRef.current?.setMarkdown(SAMPLE_TEXT);
    editorRef.current?.focus();
  };

  return {
    editorRef,
    initialText,
    readText,
    textIsBlank,
    setTextIsBlank,
    formError,
    clearError: () => setFormError(null),
    editPass,
    setEditPass,
    chooseVoice,
    submit,
    retryFailed,
    fillSample,
  };
}
