import { describe, expect, it } from 'vitest';
import {
  type ConversionAction,
  type ConversionState,
  conversionReducer,
  failedChunkIndexes,
  hasUsableRewrite,
  initialConversionState,
  mixedOutput,
  rephrasedOutput,
} from './conversion';
import type { ConvertRequest } from './conversion-run';
import type { ConvertStreamEvent, EditChunkPayload } from './events';
import { retryFailedChunks } from './retry-chunks';

const TEXT = 'One.\n\nTwo.\n\nThree.';

/** A finished run: chunk 1 rewritten, chunks 0 and 2 failed. */
function finished(): ConversionState {
  const events: ConvertStreamEvent[] = [
    {
      type: 'chunk_positions',
      chunkPositions: [
        { start: 0, end: 4 },
        { start: 6, end: 10 },
        { start: 12, end: 18 },
      ],
      baseText: TEXT,
    },
    { type: 'chunk', chunkIndex: 0, text: '[Error converting chunk 1: too short]' },
    { type: 'chunk', chunkIndex: 1, text: 'Dos.' },
    { type: 'chunk', chunkIndex: 2, text: '[Error converting chunk 3: too short]' },
    { type: 'complete' },
  ];
  return events.reduce(
    (state, event) => conversionReducer(state, { type: 'event', runId: 1, event }),
    conversionReducer(initialConversionState, { type: 'start', runId: 1, text: TEXT }),
  );
}

async function* one(text: string): AsyncGenerator<ConvertStreamEvent> {
  yield { type: 'chunk_positions', chunkPositions: [{ start: 0, end: text.length }], baseText: text };
  yield { type: 'chunk', chunkIndex: 0, text };
  yield { type: 'complete' };
}

function run(
  state: ConversionState,
  answer: (request: ConvertRequest) => string,
  edits: EditChunkPayload[] | null = null,
) {
  const actions: ConversionAction[] = [];
  const requests: ConvertRequest[] = [];
  const done = retryFailedChunks({
    editPassEnabled: () => edits !== null,
    editChunk: async (payload) => {
      edits?.push(payload);
      return `${payload.rephrasedChunk}!`;
    },
    runId: 2,
    loraId: 'voice-1',
    state,
    variation: 3,
    signal: new AbortController().signal,
    dispatch: (action) => actions.push(action),
    openStream: async (request) => {
      requests.push(request);
      return one(answer(request));
    },
    handleInsufficientLimit: () => false,
  });
  return { done, requests, screen: () => actions.reduce(conversionReducer, state) };
}

describe('retryFailedChunks', () => {
  it('rewrites just the failed chunks again, each with a new variation', async () => {
    const state = finished();
    expect(failedChunkIndexes(state)).toEqual([0, 2]);
    const { done, requests, screen } = run(state, (request) => `New ${request.text}`);
    await done;
    expect(requests.map((r) => r.text)).toEqual(['One.', 'Three.']);
    expect(new Set(requests.map((r) => r.variation)).size).toBe(2);
    const after = screen();
    expect(after.phase).toBe('complete');
    expect(rephrasedOutput(after)).toBe('New One.\n\nDos.\n\nNew Three.');
    expect(failedChunkIndexes(after)).toEqual([]);
  });

  it('keeps the marker of a chunk that fails again', async () => {
    const { done, screen } = run(finished(), (request) =>
      request.text === 'One.' ? '[Error converting chunk 1: again]' : 'Tres.',
    );
    await done;
    const after = screen();
    expect(rephrasedOutput(after)).toBe('[Error converting chunk 1: too short]\n\nDos.\n\nTres.');
    expect(failedChunkIndexes(after)).toEqual([0]);
    expect(hasUsableRewrite(after)).toBe(true);
  });

  it('with the edit pass on, proofreads the chunks that came out and keeps the earlier proofreads', async () => {
    const proofread = [
      { type: 'editPassStart', runId: 1, total: 1 },
      { type: 'chunkEdited', runId: 1, index: 1, text: 'Dos!' },
      { type: 'editPassEnd', runId: 1, stopped: false },
    ] satisfies ConversionAction[];
    const state = proofread.reduce(conversionReducer, finished());
    const edits: EditChunkPayload[] = [];
    const { done, screen } = run(
      state,
      (request) => (request.text === 'One.' ? '[Error converting chunk 1: again]' : 'Tres.'),
      edits,
    );
    await done;
    expect(edits).toEqual([{ originalChunk: 'Three.', rephrasedChunk: 'Tres.', chunkIndex: 2 }]);
    const after = screen();
    expect(after.editPass).toEqual({ status: 'done', total: 2 });
    expect(mixedOutput(after)).toBe('[Error converting chunk 1: too short]\n\nDos!\n\nTres.!');
  });
});
