// One conversion run, free of React and fetch so it can be tested: open the stream (Convert's,
// or Create's generate stream reduced to its rewrite events), apply its events, then, when the
// pass is on, proofread the chunks at most EDIT_PASS_CONCURRENCY at a time. Every action goes through the reducer both here (to know the
// chunks) and in the screen (to show them). An aborted run stops quietly.

import { CONVERT_MESSAGES, EDIT_PASS_CONCURRENCY } from '@ownvoice/shared';
import { forEachWithConcurrency } from './concurrency';
import {
  type ConversionAction,
  type ConversionState,
  conversionReducer,
  editPassTargets,
  initialConversionState,
} from './conversion';
import { ConvertRequestError, convertFailureMessage, editErrorMessage, streamReadErrorMessage } from './errors';
import type { ConvertStreamEvent, EditChunkPayload } from './events';

export interface ConvertRequest {
  loraId: string;
  text: string;
  signal: AbortSignal;
  /** Another rewrite than the default one (Re-rephrase, a retry): the Voice samples with this seed. */
  variation?: number;
}

export interface ConversionRunDeps {
  runId: number;
  loraId: string;
  /** The editor's markdown. */
  text: string;
  signal: AbortSignal;
  dispatch(action: ConversionAction): void;
  openStream(request: ConvertRequest): Promise<AsyncIterable<ConvertStreamEvent>>;
  editChunk(payload: EditChunkPayload, signal: AbortSignal): Promise<string>;
  /** Read once the conversion completes, so ticking the box mid-stream still counts. */
  editPassEnabled(): boolean;
  /**
   * How many of the `needed` proofreads to spend, asked before the pass starts (the screen compares
   * them with what is left, and asks the person when they fall short); all of them when absent.
   */
  planEditPass?(needed: number): Promise<number>;
  /** Opens the purchase prompt when the error says a resource ran out; true when it did. */
  handleInsufficientLimit(error: unknown): boolean;
  /** The conversion completed (before any edit pass). */
  onComplete?(): void;
  /** The server refused the request (e.g. the Voice fell asleep: the list is worth a refetch). */
  onRequestRefused?(error: ConvertRequestError): void;
  /** What a request that failed without an answer says (default: Convert's message). */
  requestFailureMessage?(error: unknown): string;
  concurrency?: number;
}

/** Runs the whole conversion; resolves with the run's last state once nothing is left to do. */
export async function runConversion(deps: ConversionRunDeps): Promise<ConversionState> {
  const { runId, signal } = deps;
  let state = initialConversionState;
  const apply = (action: ConversionAction) => {
    state = conversionReducer(state, action);
    deps.dispatch(action);
  };
  const fail = (message: string | null) => apply({ type: 'fail', runId, message });

  apply({ type: 'start', runId, text: deps.text });

  let events: AsyncIterable<ConvertStreamEvent>;
  try {
    events = await deps.openStream({ loraId: deps.loraId, text: deps.text, signal });
  } catch (error) {
    if (signal.aborted) return state;
    if (error instanceof ConvertRequestError) {
      deps.onRequestRefused?.(error);
      fail(deps.handleInsufficientLimit(error.apiError) ? null : error.message);
    } else {
      const message = (deps.requestFailureMessage ?? convertFailureMessage)(error);
      fail(deps.handleInsufficientLimit(error) ? null : message);
    }
    return state;
  }

  try {
    for await (const event of events) {
      if (signal.aborted) return state;
      apply({ type: 'event', runId, event });
      if (event.type === 'complete' || event.type === 'error') break;
    }
  } catch (error) {
    if (!signal.aborted) fail(streamReadErrorMessage(error));
    return state;
  }
  if (signal.aborted) return state;
  // The body ended without saying it was complete.
  if (state.phase === 'streaming') fail(CONVERT_MESSAGES.streamingError);
  if (state.phase !== 'complete') return state;

  deps.onComplete?.();
  if (deps.editPassEnabled()) await proofreadChunks(deps, editPassTargets(state.chunks), apply, () => state);
  return state;
}

/** What an edit pass needs of a run. */
export type EditPassDeps = Pick<
  ConversionRunDeps,
  'runId' | 'signal' | 'editChunk' | 'planEditPass' | 'handleInsufficientLimit' | 'concurrency'
>;

/**
 * Proofreads the `targets` chunks of a completed run. Never a silent partial pass: what will not
 * be proofread (too few proofreads left) is marked so before the pass starts.
 */
export async function proofreadChunks(
  deps: EditPassDeps,
  targets: readonly number[],
  apply: (action: ConversionAction) => void,
  current: () => ConversionState,
): Promise<void> {
  if (targets.length === 0) return;
  const { runId, signal } = deps;
  const planned = deps.planEditPass ? await deps.planEditPass(targets.length) : targets.length;
  if (signal.aborted) return;
  const allowed = Math.max(0, Math.min(targets.length, Math.floor(planned)));
  if (allowed < targets.length) apply({ type: 'chunksNotProofread', runId, indexes: targets.slice(allowed) });
  if (allowed > 0) await runEditPass(deps, targets.slice(0, allowed), apply, current);
}

async function runEditPass(
  deps: EditPassDeps,
  targets: readonly number[],
  apply: (action: ConversionAction) => void,
  current: () => ConversionState,
): Promise<void> {
  const { runId, signal } = deps;
  let stopped = false;
  apply({ type: 'editPassStart', runId, total: targets.length });

  await forEachWithConcurrency(targets, deps.concurrency ?? EDIT_PASS_CONCURRENCY, async (index) => {
    const chunk = current().chunks[index];
    if (signal.aborted || !chunk) return;
    if (stopped) {
      apply({ type: 'chunkEditCancelled', runId, index });
      return;
    }
    apply({ type: 'chunkEditStart', runId, index });
    try {
      const edited = await deps.editChunk(
        { originalChunk: chunk.original, rephrasedChunk: chunk.rephrased, chunkIndex: chunk.index },
        signal,
      );
      if (!signal.aborted) apply({ type: 'chunkEdited', runId, index, text: edited });
    } catch (error) {
      if (signal.aborted) return;
      // Out of proofreads after all (spent elsewhere meanwhile): the purchase prompt opens, no
      // further chunk is sent, and the ones not sent are marked as not proofread.
      if (deps.handleInsufficientLimit(error)) {
        stopped = true;
        apply({ type: 'chunkEditCancelled', runId, index });
        return;
      }
      apply({ type: 'chunkEditFailed', runId, index, error: editErrorMessage(error) });
    }
  });

  if (!signal.aborted) apply({ type: 'editPassEnd', runId, stopped });
}
