// The text a rewrite's output box shows (Convert's output, Create's Rephrased panel): the edited
// (mixed) or the plain rephrased view, by default the edited one once an edit pass ran, and
// whatever the user typed over it, kept per run and view (a kept rewrite brings back what was
// typed over it, under its run id).
import { useCallback, useState } from 'react';
import { type ConversionState, mixedOutput, rephrasedOutput } from './conversion';
import type { OutputEdits } from './kept-rewrite';

export type RewriteView = 'mixed' | 'rephrased';

const editsOf = (runId: number, kept: OutputEdits | undefined): Record<string, string> =>
  Object.fromEntries(Object.entries(kept ?? {}).map(([view, text]) => [`${runId}:${view}`, text]));

export function useRewriteOutput(state: ConversionState, keptEdits?: OutputEdits) {
  const [viewChoice, setViewChoice] = useState<{ runId: number; view: RewriteView } | null>(null);
  const [edits, setEdits] = useState<Record<string, string>>(() => editsOf(state.runId, keptEdits));
  const editPassRan = state.editPass.status !== 'off';
  const view: RewriteView = viewChoice?.runId === state.runId ? viewChoice.view : editPassRan ? 'mixed' : 'rephrased';
  const key = `${state.runId}:${view}`;
  /** A new run starts: back to the default view, nothing typed. */
  const reset = useCallback(() => {
    setEdits({});
    setViewChoice(null);
  }, []);
  return {
    text: edits[key] ?? (view === 'mixed' ? mixedOutput(state) : rephrasedOutput(state)),
    /** The current view, or null when no edit pass ran (no toggle then). */
    view: editPassRan ? view : null,
    toggleView: () => setViewChoice({ runId: state.runId, view: view === 'mixed' ? 'rephrased' : 'mixed' }),
    edit: (value: string) => setEdits((all) => ({ ...all, [key]: value })),
    /** What was typed over this run's views, to keep. */
    edits: {
      ...(edits[`${state.runId}:mixed`] !== undefined ? { mixed: edits[`${state.runId}:mixed`] } : {}),
      ...(edits[`${state.runId}:rephrased`] !== undefined ? { rephrased: edits[`${state.runId}:rephrased`] } : {}),
    } as OutputEdits,
    reset,
  };
}
