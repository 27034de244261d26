// The conversion state machine: idle, streaming, then complete (and the optional edit pass) or
// error. Chunks and the text around them come from the server's positions; the output views
// stitch the chunk texts back between those separators (stitching in @ownvoice/shared). A pure
// reducer: every action names its run, and actions of any run but the latest are ignored, so a
// newer run always wins over a stale one.
import { CONVERT_MESSAGES, clampSpans, isFailedRewrite, rewriteIsUsable, separatorsOf, stitch } from '@ownvoice/shared';
import type { ChunkPosition, ConvertStreamEvent } from './events';
import { CONVERT_STATUS } from './status';

/** `unproofread`: the edit pass left it as the Voice wrote it, for want of proofreads. */
export type ChunkStatus = 'streaming' | 'ready' | 'editing' | 'edited' | 'failed' | 'unproofread';

export interface Chunk {
  index: number;
  /** The submitted text of this chunk. */
  original: string;
  /** The Voice's rewrite, as streamed so far. */
  rephrased: string;
  /** The edit pass's version, once it succeeded. */
  edited: string | null;
  status: ChunkStatus;
  /** A reroll's reason while the chunk is being redone, or why its edit failed. */
  error: string | null;
  /** How many times the chunk was tried: 1, plus one per reroll. */
  attempts: number;
}

export type ConversionPhase = 'idle' | 'streaming' | 'complete' | 'error';
export type EditPassStatus = 'off' | 'running' | 'done' | 'stopped';

export interface ConversionState {
  runId: number;
  phase: ConversionPhase;
  /** The text the chunk positions point into. */
  baseText: string;
  chunks: readonly Chunk[];
  /** The text around the chunks: one more than there are chunks (before, between, after). */
  separators: readonly string[];
  error: string | null;
  editPass: { status: EditPassStatus; total: number };
}

export type ConversionAction =
  | { type: 'start'; runId: number; text: string }
  | { type: 'event'; runId: number; event: ConvertStreamEvent }
  /** The request or the read failed; a null message shows nothing (e.g. the purchase modal opened). */
  | { type: 'fail'; runId: number; message: string | null }
  | { type: 'editPassStart'; runId: number; total: number }
  | { type: 'chunkEditStart'; runId: number; index: number }
  | { type: 'chunkEdited'; runId: number; index: number; text: string }
  | { type: 'chunkEditFailed'; runId: number; index: number; error: string }
  /** An edit that was not made: the pass stopped when the proofreads ran out. */
  | { type: 'chunkEditCancelled'; runId: number; index: number }
  /** Chunks the pass will not proofread: fewer proofreads were left than it needed. */
  | { type: 'chunksNotProofread'; runId: number; indexes: readonly number[] }
  | { type: 'editPassEnd'; runId: number; stopped: boolean }
  /**
   * A retry of the failed chunks starts: the run adopts the retry's id, those chunks stream again,
   * and the others keep what they had, their proofreads included.
   */
  | { type: 'retryStart'; runId: number; indexes: readonly number[] }
  /** A retried chunk's new rewrite (or its old error marker, when it failed again). */
  | { type: 'chunkRetried'; runId: number; index: number; text: string }
  | { type: 'retryEnd'; runId: number }
  /** Proofreading the chunks an earlier pass left unproofread starts: the run adopts its id. */
  | { type: 'proofreadStart'; runId: number };

/** Chunks beyond this index are never created from chunk events alone (a guard against bad input). */
const MAX_CHUNKS = 10_000;

export const initialConversionState: ConversionState = {
  runId: 0,
  phase: 'idle',
  baseText: '',
  chunks: [],
  separators: [],
  error: null,
  editPass: { status: 'off', total: 0 },
};

const newChunk = (index: number, original: string): Chunk => ({
  index,
  original,
  rephrased: '',
  edited: null,
  status: 'streaming',
  error: null,
  attempts: 1,
});

/** Chunks and separators from the server's positions, which are clamped so they never overlap. */
export function chunkTemplate(
  baseText: string,
  positions: readonly ChunkPosition[],
): { chunks: Chunk[]; separators: string[] } {
  const spans = clampSpans(baseText, positions);
  return {
    chunks: spans.map((span, index) => newChunk(index, baseText.slice(span.start, span.end))),
    separators: separatorsOf(baseText, spans),
  };
}

function updateChunk(state: ConversionState, index: number, update: (chunk: Chunk) => Chunk): ConversionState {
  const chunk = state.chunks[index];
  if (!chunk) return state;
  const chunks = state.chunks.slice();
  chunks[index] = update(chunk);
  return { ...state, chunks };
}

/** Chunk events for indexes the template lacks grow the list (only when no template came). */
function withChunk(state: ConversionState, index: number): ConversionState {
  if (index < state.chunks.length) return state;
  if (index >= MAX_CHUNKS) return state;
  const chunks = state.chunks.slice();
  const separators = state.separators.length > 0 ? state.separators.slice() : [''];
  while (chunks.length <= index) {
    chunks.push(newChunk(chunks.length, ''));
    separators.push('');
  }
  return { ...state, chunks, separators };
}

/** A stream that stopped keeps its finished chunks and drops the partial ones. */
function failed(state: ConversionState, message: string | null): ConversionState {
  return {
    ...state,
    phase: 'error',
    error: message,
    chunks: state.chunks.map((chunk) =>
      chunk.status === 'streaming' ? { ...chunk, rephrased: '', error: null } : chunk,
    ),
  };
}

function applyEvent(state: ConversionState, event: ConvertStreamEvent): ConversionState {
  if (state.phase !== 'streaming') return state;
  switch (event.type) {
    case 'chunk_positions': {
      const baseText = event.baseText ?? state.baseText;
      return { ...state, baseText, ...chunkTemplate(baseText, event.chunkPositions) };
    }
    case 'chunk': {
      if (event.text === '') return state;
      const grown = withChunk(state, event.chunkIndex);
      if (!grown.chunks[event.chunkIndex]) return state;
      // Chunks stream one after another: text for this one means the earlier ones are done.
      const chunks = grown.chunks.map((chunk) => {
        if (chunk.index === event.chunkIndex) {
          return { ...chunk, rephrased: chunk.rephrased + event.text, error: null };
        }
        if (chunk.index < event.chunkIndex && chunk.status === 'streaming' && chunk.rephrased !== '') {
          return { ...chunk, status: 'ready' as const };
        }
        return chunk;
      });
      return { ...grown, chunks };
    }
    case 'chunk_reroll': {
      const grown = withChunk(state, event.chunkIndex);
      return updateChunk(grown, event.chunkIndex, (chunk) => ({
        ...chunk,
        rephrased: '',
        edited: null,
        status: 'streaming',
        error: event.reason ?? '',
        attempts: chunk.attempts + 1,
      }));
    }
    case 'complete':
      return {
        ...state,
        phase: 'complete',
        chunks: state.chunks.map((chunk) =>
          chunk.status === 'streaming' ? { ...chunk, status: 'ready' as const } : chunk,
        ),
      };
    case 'error':
      return failed(state, event.error || CONVERT_MESSAGES.convertFailed);
  }
}

export function conversionReducer(state: ConversionState, action: ConversionAction): ConversionState {
  if (action.type === 'start') {
    return { ...initialConversionState, runId: action.runId, phase: 'streaming', baseText: action.text };
  }
  if (action.type === 'retryStart') {
    if (state.phase !== 'complete' || action.indexes.length === 0) return state;
    const retried = new Set(action.indexes);
    return {
      ...state,
      runId: action.runId,
      phase: 'streaming',
      chunks: state.chunks.map((chunk) =>
        retried.has(chunk.index)
          ? {
              ...chunk,
              rephrased: '',
              edited: null,
              status: 'streaming' as const,
              error: null,
              attempts: chunk.attempts + 1,
            }
          : chunk,
      ),
    };
  }
  if (action.type === 'proofreadStart') {
    return state.phase === 'complete' && state.editPass.status !== 'running'
      ? { ...state, runId: action.runId }
      : state;
  }
  if (action.runId !== state.runId) return state;

  switch (action.type) {
    case 'event':
      return applyEvent(state, action.event);
    case 'fail':
      return state.phase === 'streaming' ? failed(state, action.message) : state;
    case 'editPassStart':
      if (state.phase !== 'complete') return state;
      // A later pass (over retried chunks) counts on from what the earlier one settled.
      return { ...state, editPass: { status: 'running', total: settledEdits(state) + action.total } };
    case 'chunkEditStart':
      return updateChunk(state, action.index, (chunk) => ({ ...chunk, status: 'editing', error: null }));
    case 'chunkEdited':
      return updateChunk(state, action.index, (chunk) => ({
        ...chunk,
        edited: action.text,
        status: 'edited',
        error: null,
      }));
    case 'chunkEditFailed':
      return updateChunk(state, action.index, (chunk) => ({ ...chunk, status: 'failed', error: action.error }));
    case 'chunkEditCancelled':
      return updateChunk(state, action.index, (chunk) => ({ ...chunk, status: 'unproofread' }));
    case 'chunkRetried':
      return updateChunk(state, action.index, (chunk) => ({ ...chunk, rephrased: action.text, status: 'ready' }));
    case 'retryEnd':
      return state.phase === 'streaming' ? { ...state, phase: 'complete' } : state;
    case 'chunksNotProofread':
      return action.indexes.reduce(
        (next, index) => updateChunk(next, index, (chunk) => ({ ...chunk, status: 'unproofread' })),
        state,
      );
    case 'editPassEnd':
      if (state.editPass.status !== 'running') return state;
      return { ...state, editPass: { ...state.editPass, status: action.stopped ? 'stopped' : 'done' } };
  }
}

// ---- What the screen reads from the state ----

/** Chunks the edit pass leaves alone: nothing rephrased, or an error marker. */
export function isSkippedByEditPass(chunk: Chunk): boolean {
  return isFailedRewrite(chunk.rephrased);
}

/** Indexes of the chunks whose rewrite failed (an error marker where the Voice's text should be). */
export const failedChunkIndexes = (state: ConversionState): number[] =>
  state.phase === 'complete' ? state.chunks.filter(isNotRewritten).map((chunk) => chunk.index) : [];

/** Whether the finished rewrite holds anything in the Voice (shared's rule, which Create charges by). */
export const hasUsableRewrite = (state: ConversionState): boolean =>
  rewriteIsUsable(state.chunks.map((chunk) => chunk.rephrased));

/** Indexes of the chunks an edit pass left unproofread (out of proofreads, or the page was left). */
export const unproofreadIndexes = (state: ConversionState): number[] =>
  state.phase === 'complete' && state.editPass.status !== 'running'
    ? state.chunks.filter((chunk) => chunk.status === 'unproofread').map((chunk) => chunk.index)
    : [];

/** Indexes of the chunks the edit pass proofreads. */
export const editPassTargets = (chunks: readonly Chunk[]): number[] =>
  chunks.filter((chunk) => !isSkippedByEditPass(chunk)).map((chunk) => chunk.index);

/** The inline placeholder of a rerolled chunk until new text replaces it, or null. */
export function rerollPlaceholder(chunk: Chunk): string | null {
  if (chunk.rephrased !== '' || chunk.error === null || chunk.status === 'failed') return null;
  return CONVERT_MESSAGES.chunkError(chunk.index + 1, chunk.error);
}

/** Chunks being redone right now. */
export const rerollingCount = (state: ConversionState): number =>
  state.phase === 'streaming'
    ? state.chunks.filter((chunk) => chunk.status === 'streaming' && rerollPlaceholder(chunk) !== null).length
    : 0;

/** The rephrased view: what the Voice wrote, placeholders included, chunks appearing as they stream. */
export function rephrasedOutput(state: ConversionState): string {
  const pieces = state.chunks.map((chunk) => {
    if (chunk.rephrased !== '') return chunk.rephrased;
    return rerollPlaceholder(chunk);
  });
  return stitch(pieces, state.separators, { final: state.phase === 'complete' });
}

/**
 * The mixed (edited) view: edited, else rephrased, else original. A chunk whose rewrite failed
 * keeps its error marker here as in the rephrased view, so no part of the text silently vanishes.
 */
export function mixedOutput(state: ConversionState): string {
  const pieces = state.chunks.map((chunk) => {
    if (chunk.edited !== null && chunk.edited.trim() !== '') return chunk.edited;
    return chunk.rephrased !== '' ? chunk.rephrased : chunk.original;
  });
  return stitch(pieces, state.separators, { final: state.phase === 'complete' });
}

/** Chunks whose proofread is over, either way. */
const settledEdits = (state: ConversionState): number =>
  state.chunks.filter((chunk) => chunk.status === 'edited' || chunk.status === 'failed').length;

export function editProgress(state: ConversionState): { settled: number; total: number } {
  return { settled: Math.min(settledEdits(state), state.editPass.total), total: state.editPass.total };
}

/** A finished chunk that holds the error marker instead of a rewrite. */
export function isNotRewritten(chunk: Chunk): boolean {
  return chunk.status !== 'streaming' && isSkippedByEditPass(chunk);
}

/** A proofread that came back the same as the Voice's text (spaces at its ends aside). */
export const isUnchangedEdit = (chunk: Chunk): boolean =>
  chunk.status === 'edited' && chunk.edited !== null && chunk.edited.trim() === chunk.rephrased.trim();

/** The edit pass is over and proofread some chunks, yet changed none of them: the page says so. */
export function editPassChangedNothing(state: ConversionState): boolean {
  if (state.editPass.status !== 'done' && state.editPass.status !== 'stopped') return false;
  const edited = state.chunks.filter((chunk) => chunk.status === 'edited');
  return edited.length > 0 && edited.every(isUnchangedEdit);
}

/** The status texts beside the output, in order. */
export function statusTexts(state: ConversionState): string[] {
  const texts: string[] = [];
  if (state.phase === 'streaming') {
    texts.push(CONVERT_STATUS.streaming);
    const rerolling = rerollingCount(state);
    if (rerolling > 0) texts.push(CONVERT_STATUS.rerolling(rerolling));
  }
  if (state.editPass.status === 'running') {
    const { settled, total } = editProgress(state);
    texts.push(CONVERT_STATUS.editing(settled, total));
  }
  const unproofread = state.chunks.filter((chunk) => chunk.status === 'unproofread').length;
  if (unproofread > 0) texts.push(CONVERT_STATUS.notProofread(unproofread));
  if (editPassChangedNothing(state)) texts.push(CONVERT_STATUS.unchanged);
  return texts;
}

export const isBusy = (state: ConversionState): boolean =>
  state.phase === 'streaming' || state.editPass.status === 'running';

/** What a run is doing now: nothing, streaming the rewrite, or running the edit pass. */
export type RunPhase = 'idle' | 'streaming' | 'editing';

export function runPhase(state: ConversionState): RunPhase {
  if (state.phase === 'streaming') return 'streaming';
  if (state.editPass.status === 'running') return 'editing';
  return 'idle';
}
