// Create's work kept in the tab (lib/session/kept-work.ts): read once when the page opens, then
// kept a moment after the form or Quick mode's run changes.
import { useCallback } from 'react';
import { useKeptWork, useKeptWorkOnOpen } from '../../../lib/session/kept-work';
import { type KeptCreate, keptCreateOf, keptCreateSchema } from '../kept-create';
import type { useCreateForm } from './use-create-form';
import type { useCreateRun } from './use-create-run';

/** What the page kept for this person, read once. */
export const useKeptCreate = (userId: string): KeptCreate | null =>
  useKeptWorkOnOpen('create', userId, keptCreateSchema);

export function useKeepCreate(
  userId: string,
  form: ReturnType<typeof useCreateForm>,
  run: ReturnType<typeof useCreateRun>,
): void {
  const { mode, length, prompt, format, editPass } = form;
  const { draft, rewrite, output } = run;
  const read = useCallback(
    () => keptCreateOf({ mode, length, prompt, format, editPass }, { draft, rewrite, edits: output.edits }),
    [mode, length, prompt, format, editPass, draft, rewrite, output.edits],
  );
  useKeptWork('create', userId, read, [mode, length, prompt, format, editPass, draft, rewrite, output.text]);
}
