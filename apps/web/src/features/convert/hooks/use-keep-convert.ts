// Convert's work kept in the tab (lib/session/kept-work.ts): read once when the page opens, then
// kept a moment after the editor, the edit-pass box or the rewrite changes.
import { useCallback, useState } from 'react';
import { useKeptWork, useKeptWorkOnOpen } from '../../../lib/session/kept-work';
import { type KeptConvert, keptConvertOf, keptConvertSchema } from '../kept-convert';
import type { useConversion } from './use-conversion';
import type { useConvertForm } from './use-convert-form';

/** What the page kept for this person, read once. */
export const useKeptConvert = (userId: string): KeptConvert | null =>
  useKeptWorkOnOpen('convert', userId, keptConvertSchema);

export function useKeepConvert(
  userId: string,
  form: ReturnType<typeof useConvertForm>,
  conversion: ReturnType<typeof useConversion>,
) {
  const [editorVersion, setEditorVersion] = useState(0);
  const { readText, editPass } = form;
  const { state, output } = conversion;
  const read = useCallback(
    () => keptConvertOf({ text: readText(), editPass, rewrite: state, edits: output.edits }),
    [readText, editPass, state, output.edits],
  );
  useKeptWork('convert', userId, read, [editorVersion, editPass, state, output.text]);
  /** The editor's content changed. */
  return useCallback(() => setEditorVersion((version) => version + 1), []);
}
