// Retrying just the chunks whose rewrite failed: each chunk's original goes through the convert
// stream again, one at a time, with a variation so the Voice samples a different rewrite than the
// attempts that failed; its result replaces the error marker, or the marker stays when it fails
// again. With the edit pass on, the chunks that came out are proofread after, as a run's are.
// Free of React and fetch so it can be tested, as conversion-run.ts is.
import { isFailedRewrite } from '@ownvoice/shared';
import {
  type ConversionAction,
  type ConversionState,
  conversionReducer,
  editPassTargets,
  failedChunkIndexes,
  initialConversionState,
  rephrasedOutput,
} from './conversion';
import { type ConvertRequest, type EditPassDeps, proofreadChunks } from './conversion-run';
import { ConvertRequestError } from './errors';
import type { ConvertStreamEvent } from './events';

export interface RetryDeps extends EditPassDeps {
  /** The retry's own run id (a newer run still wins over it). */
  runId: number;
  loraId: string;
  /** The finished run whose failed chunks are retried. */
  state: ConversionState;
  /** Seeds the retry's sampling: each retry passes a new one. */
  variation: number;
  dispatch(action: ConversionAction): void;
  openStream(request: ConvertRequest): Promise<AsyncIterable<ConvertStreamEvent>>;
  /** Read once the retries are done: whether to proofread the chunks that came out. */
  editPassEnabled(): boolean;
}

/** One chunk's rewrite through its own stream: the stitched text, or null when it failed. */
async function rewriteOne(deps: RetryDeps, text: string, variation: number): Promise<string | null> {
  const events = await deps.openStream({ loraId: deps.loraId, text, signal: deps.signal, variation });
  let state = conversionReducer(initialConversionState, { type: 'start', runId: 1, text });
  for await (const event of events) {
    state = conversionReducer(state, { type: 'event', runId: 1, event });
    if (event.type === 'complete' || event.type === 'error') break;
  }
  if (state.phase !== 'complete') return null;
  const output = rephrasedOutput(state).trim();
  return isFailedRewrite(output) || state.chunks.some((chunk) => isFailedRewrite(chunk.rephrased)) ? null : output;
}

/** Retries every failed chunk of `state`; resolves once each has its new text or its old marker. */
export async function retryFailedChunks(deps: RetryDeps): Promise<void> {
  const { runId, state, signal } = deps;
  const indexes = failedChunkIndexes(state);
  if (indexes.length === 0) return;
  let current = state;
  const apply = (action: ConversionAction) => {
    current = conversionReducer(current, action);
    deps.dispatch(action);
  };
  apply({ type: 'retryStart', runId, indexes });
  let stopped = false;
  for (const index of indexes) {
    const chunk = state.chunks[index];
    if (!chunk) continue;
    let text: string | null = null;
    if (!stopped) {
      try {
        text = await rewriteOne(deps, chunk.original, deps.variation * 1000 + index + 1);
      } catch (error) {
        if (signal.aborted) return;
        // A Voice asleep or waking hours spent: say so once and leave the rest as they were.
        const apiError = error instanceof ConvertRequestError ? error.apiError : error;
        deps.handleInsufficientLimit(apiError);
        stopped = true;
      }
    }
    if (signal.aborted) return;
    apply({ type: 'chunkRetried', runId, index, text: text ?? chunk.rephrased });
  }
  apply({ type: 'retryEnd', runId });
  if (stopped || !deps.editPassEnabled()) return;
  const retried = new Set(indexes);
  const targets = editPassTargets(current.chunks).filter((index) => retried.has(index));
  await proofreadChunks(deps, targets, apply, () => current);
}
