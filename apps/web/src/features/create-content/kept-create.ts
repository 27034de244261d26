// What Create keeps across a checkout round trip or a reload (lib/session/kept-work.ts): the form
// (mode, length, prompt, format, edit-pass box) and Quick mode's draft and rewrite. The reference
// file is not kept (a file cannot go into the tab's storage); an interactive session keeps itself
// (interactive-storage.ts). A draft cut off by leaving is kept as far as it came, as failed.
import { CONTENT_FORMATS, INTERACTIVE_MODES, MAX_PROMPT_CHARS } from '@ownvoice/shared';
import { z } from 'zod';
import type { ConversionState } from '../../lib/rewrite/conversion';
import { keptRewriteOf, keptRewriteSchema, type OutputEdits } from '../../lib/rewrite/kept-rewrite';
import { type DraftState, initialDraftState } from './draft';

const keptDraftSchema = z.object({
  phase: z.enum(['idle', 'generating', 'drafted', 'failed']),
  thinking: z.string(),
  draft: z.string(),
  charged: z.union([z.literal(0), z.literal(1)]).optional(),
});

export const keptCreateSchema = z.object({
  mode: z.enum(['quick', 'interactive']),
  length: z.enum(INTERACTIVE_MODES),
  prompt: z.string().max(MAX_PROMPT_CHARS),
  format: z.enum(CONTENT_FORMATS),
  editPass: z.boolean(),
  draft: keptDraftSchema.nullable(),
  rewrite: keptRewriteSchema.nullable(),
});

export type KeptCreate = z.infer<typeof keptCreateSchema>;
export type KeptCreateForm = Pick<KeptCreate, 'mode' | 'length' | 'prompt' | 'format' | 'editPass'>;

/** What to keep of the page: nothing when no prompt was typed and nothing was drafted. */
export function keptCreateOf(
  form: KeptCreateForm,
  run: { draft: DraftState; rewrite: ConversionState; edits: OutputEdits },
): KeptCreate | null {
  const draft =
    run.draft.phase === 'idle'
      ? null
      : {
          phase: run.draft.phase,
          thinking: run.draft.thinking,
          draft: run.draft.draft,
          ...(run.draft.charged !== undefined ? { charged: run.draft.charged } : {}),
        };
  const rewrite = keptRewriteOf(run.rewrite, run.edits);
  if (form.prompt.trim() === '' && draft === null && rewrite === null) return null;
  return { ...form, draft, rewrite };
}

/** The draft a page starts from with a kept one: one still being written when the page was left failed. */
export function restoredDraft(kept: KeptCreate['draft']): DraftState {
  if (kept === null) return initialDraftState;
  return {
    ...initialDraftState,
    ...kept,
    phase: kept.phase === 'generating' ? 'failed' : kept.phase,
  };
}
