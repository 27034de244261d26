// A rewrite as a page keeps it across a checkout round trip or a reload (lib/session/kept-work.ts):
// the conversion state and whatever the person typed over the output. What comes back is settled:
// nothing can still be streaming or proofreading in a page that was just loaded, so a run that was
// cut off by leaving keeps its finished chunks and says so, and chunks whose proofread never
// came back are marked not proofread (the page offers to proofread them).
import { z } from 'zod';
import { type ConversionState, initialConversionState } from './conversion';

/** Says why the rewrite shown stopped short: the page was left (or reloaded) while it ran. */
export const LEFT_MID_RUN =
  'The page was left before the rewrite finished: the parts that came out are kept. Convert again for the rest.';

const chunkSchema = z.object({
  index: z.number().int().nonnegative(),
  original: z.string(),
  rephrased: z.string(),
  edited: z.string().nullable(),
  status: z.enum(['streaming', 'ready', 'editing', 'edited', 'failed', 'unproofread']),
  error: z.string().nullable(),
  attempts: z.number().int().positive(),
});

export const keptRewriteSchema = z.object({
  phase: z.enum(['idle', 'streaming', 'complete', 'error']),
  baseText: z.string(),
  chunks: z.array(chunkSchema).max(10_000),
  separators: z.array(z.string()),
  error: z.string().nullable(),
  editPass: z.object({
    status: z.enum(['off', 'running', 'done', 'stopped']),
    total: z.number().int().nonnegative(),
  }),
  /** What the person typed over the output, per view. */
  edits: z.object({ mixed: z.string().optional(), rephrased: z.string().optional() }),
});

export type KeptRewrite = z.infer<typeof keptRewriteSchema>;
export type OutputEdits = KeptRewrite['edits'];

/** What to keep of a rewrite: nothing before a run started. */
export function keptRewriteOf(state: ConversionState, edits: OutputEdits): KeptRewrite | null {
  if (state.phase === 'idle') return null;
  const { runId: _runId, ...rest } = state;
  return { ...rest, chunks: [...rest.chunks], separators: [...rest.separators], edits };
}

/** The state a page starts from with a kept rewrite: settled, under run id 0. */
export function restoredRewrite(kept: KeptRewrite): ConversionState {
  const { edits: _edits, ...state } = kept;
  const leftMidRun = state.phase === 'streaming';
  return {
    ...initialConversionState,
    ...state,
    phase: leftMidRun ? 'error' : state.phase,
    error: leftMidRun ? LEFT_MID_RUN : state.error,
    chunks: state.chunks.map((chunk) => {
      if (chunk.status === 'editing') return { ...chunk, status: 'unproofread' as const };
      // A chunk cut off mid-stream has no finished rewrite to keep.
      if (chunk.status === 'streaming') return { ...chunk, rephrased: '', error: null };
      return chunk;
    }),
    editPass: state.editPass.status === 'running' ? { ...state.editPass, status: 'stopped' } : state.editPass,
  };
}
