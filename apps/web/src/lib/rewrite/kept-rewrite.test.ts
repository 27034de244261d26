import { describe, expect, it } from 'vitest';
import {
  type ConversionAction,
  conversionReducer,
  initialConversionState,
  mixedOutput,
  statusTexts,
} from './conversion';
import { runConversion } from './conversion-run';
import type { ConvertStreamEvent } from './events';
import { keptRewriteOf, keptRewriteSchema, LEFT_MID_RUN, restoredRewrite } from './kept-rewrite';
import { proofreadRest } from './proofread-rest';

const TEXT = 'One.\n\nTwo.\n\nThree.';
const POSITIONS = [
  { start: 0, end: 4 },
  { start: 6, end: 10 },
  { start: 12, end: 18 },
];

async function* eventsOf(events: readonly ConvertStreamEvent[]) {
  for (const event of events) yield event;
}

const stream: ConvertStreamEvent[] = [
  { type: 'chunk_positions', chunkPositions: POSITIONS, baseText: TEXT },
  { type: 'chunk', chunkIndex: 0, text: 'Uno.' },
  { type: 'chunk', chunkIndex: 1, text: 'Dos.' },
  { type: 'chunk', chunkIndex: 2, text: 'Tres.' },
  { type: 'complete' },
];

/** Through the page's storage: JSON out, schema in. */
const roundTrip = (value: unknown) => keptRewriteSchema.parse(JSON.parse(JSON.stringify(value)));

/** A run whose edit pass could proofread only the first chunk (one proofread left). */
async function passThatRanShort() {
  const actions: ConversionAction[] = [];
  const state = await runConversion({
    runId: 1,
    loraId: 'voice-1',
    text: TEXT,
    signal: new AbortController().signal,
    dispatch: (action) => actions.push(action),
    openStream: async () => eventsOf(stream),
    editChunk: async ({ rephrasedChunk }) => `${rephrasedChunk}!`,
    editPassEnabled: () => true,
    planEditPass: async () => 1,
    handleInsufficientLimit: () => false,
  });
  return state;
}

describe('a kept rewrite', () => {
  it('comes back as it was, with what was typed over it', async () => {
    const state = await passThatRanShort();
    const kept = roundTrip(keptRewriteOf(state, { mixed: 'My own words.' }));
    const restored = restoredRewrite(kept);
    expect(restored.runId).toBe(0);
    expect(mixedOutput(restored)).toBe(mixedOutput(state));
    expect(kept.edits).toEqual({ mixed: 'My own words.' });
    expect(statusTexts(restored)).toEqual(['(2 chunk(s) not proofread: out of proofreads)']);
  });

  it('keeps nothing before a run started', () => {
    expect(keptRewriteOf(initialConversionState, {})).toBeNull();
  });

  it('settles a run the page left mid-stream: finished chunks kept, the cut-off one dropped, the reason said', () => {
    let state = conversionReducer(initialConversionState, { type: 'start', runId: 4, text: TEXT });
    for (const event of stream.slice(0, 3)) state = conversionReducer(state, { type: 'event', runId: 4, event });
    const restored = restoredRewrite(roundTrip(keptRewriteOf(state, {})));
    expect(restored.phase).toBe('error');
    expect(restored.error).toBe(LEFT_MID_RUN);
    expect(restored.chunks.map((chunk) => chunk.rephrased)).toEqual(['Uno.', '', '']);
  });

  it('settles an edit pass the page left: chunks being proofread are marked not proofread', () => {
    let state = conversionReducer(initialConversionState, { type: 'start', runId: 1, text: TEXT });
    for (const event of stream) state = conversionReducer(state, { type: 'event', runId: 1, event });
    state = conversionReducer(state, { type: 'editPassStart', runId: 1, total: 3 });
    state = conversionReducer(state, { type: 'chunkEditStart', runId: 1, index: 0 });
    state = conversionReducer(state, { type: 'chunkEdited', runId: 1, index: 0, text: 'Uno!' });
    state = conversionReducer(state, { type: 'chunkEditStart', runId: 1, index: 1 });
    const restored = restoredRewrite(roundTrip(keptRewriteOf(state, {})));
    expect(restored.editPass.status).toBe('stopped');
    expect(restored.chunks.map((chunk) => chunk.status)).toEqual(['edited', 'unproofread', 'ready']);
  });

  it('refuses what is not a rewrite', () => {
    expect(keptRewriteSchema.safeParse({ phase: 'complete', chunks: 'x' }).success).toBe(false);
  });
});

describe('proofreadRest', () => {
  it('proofreads just the chunks the pass left, after a top-up, under a run of its own', async () => {
    const restored = restoredRewrite(roundTrip(keptRewriteOf(await passThatRanShort(), {})));
    const actions: ConversionAction[] = [];
    const sent: number[] = [];
    await proofreadRest({
      runId: 7,
      state: restored,
      signal: new AbortController().signal,
      dispatch: (action) => actions.push(action),
      editChunk: async ({ rephrasedChunk, chunkIndex }) => {
        sent.push(chunkIndex);
        return `${rephrasedChunk}!`;
      },
      planEditPass: async (needed) => needed,
      handleInsufficientLimit: () => false,
    });
    const screen = actions.reduce(conversionReducer, restored);
    expect(sent.sort()).toEqual([1, 2]);
    expect(screen.runId).toBe(7);
    expect(mixedOutput(screen)).toBe('Uno.!\n\nDos.!\n\nTres.!');
    expect(statusTexts(screen)).toEqual([]);
    expect(screen.editPass).toEqual({ status: 'done', total: 3 });
  });
});
