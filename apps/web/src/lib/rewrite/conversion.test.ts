import { describe, expect, it } from 'vitest';
import {
  type ConversionAction,
  type ConversionState,
  chunkTemplate,
  conversionReducer,
  editPassTargets,
  initialConversionState,
  isBusy,
  isNotRewritten,
  mixedOutput,
  rephrasedOutput,
  runPhase,
  statusTexts,
} from './conversion';
import type { ConvertStreamEvent } from './events';

const TEXT = 'Intro para.\n\nSecond para.\n\nThird para.\n';
// "Intro para." [0, 11), "Second para." [13, 25), "Third para." [27, 38), then "\n".
const POSITIONS = [
  { start: 0, end: 11 },
  { start: 13, end: 25 },
  { start: 27, end: 38 },
];

const run = (actions: readonly ConversionAction[], from: ConversionState = initialConversionState) =>
  actions.reduce(conversionReducer, from);
const ev = (event: ConvertStreamEvent, runId = 1): ConversionAction => ({ type: 'event', runId, event });
const start = (runId = 1, text = TEXT): ConversionAction => ({ type: 'start', runId, text });
const positions = (runId = 1) => ev({ type: 'chunk_positions', chunkPositions: POSITIONS, baseText: TEXT }, runId);
const chunk = (chunkIndex: number, text: string, runId = 1) => ev({ type: 'chunk', chunkIndex, text }, runId);
const complete = (runId = 1) => ev({ type: 'complete' }, runId);
/** A finished run whose second chunk ran out of attempts. */
const chunk2Failed = [
  start(),
  positions(),
  chunk(0, 'A.'),
  chunk(1, '[Error converting chunk 2: no luck]'),
  chunk(2, 'C.'),
  complete(),
];

describe('chunkTemplate', () => {
  it('cuts chunks at the positions and keeps the text around them as separators', () => {
    const { chunks, separators } = chunkTemplate(TEXT, POSITIONS);
    expect(chunks.map((c) => c.original)).toEqual(['Intro para.', 'Second para.', 'Third para.']);
    expect(separators).toEqual(['', '\n\n', '\n\n', '\n']);
    expect(chunks[0]).toEqual({
      index: 0,
      original: 'Intro para.',
      rephrased: '',
      edited: null,
      status: 'streaming',
      error: null,
      attempts: 1,
    });
  });

  it('clamps overlapping or out-of-range positions', () => {
    const { chunks, separators } = chunkTemplate('abcdef', [
      { start: 1, end: 4 },
      { start: 2, end: 99 },
    ]);
    expect(chunks.map((c) => c.original)).toEqual(['bcd', 'ef']);
    expect(separators).toEqual(['a', '', '']);
    expect(chunkTemplate('  ', [])).toEqual({ chunks: [], separators: ['  '] });
  });
});

describe('conversionReducer', () => {
  it('starts streaming with an empty output, then shows chunks as they stream', () => {
    let state = run([start()]);
    expect(state.phase).toBe('streaming');
    expect(rephrasedOutput(state)).toBe('');
    expect(statusTexts(state)).toEqual(['(streaming...)']);
    expect(runPhase(state)).toBe('streaming');

    state = run([positions(), chunk(0, 'Hello'), chunk(0, ' there.')], state);
    expect(state.chunks[0]?.rephrased).toBe('Hello there.');
    expect(state.chunks[0]?.status).toBe('streaming');
    expect(rephrasedOutput(state)).toBe('Hello there.');

    state = run([chunk(1, 'Next')], state);
    expect(state.chunks[0]?.status).toBe('ready');
    expect(state.chunks[1]?.status).toBe('streaming');
    expect(rephrasedOutput(state)).toBe('Hello there.\n\nNext');
  });

  it('completes: every chunk ready, output stitched with the original separators', () => {
    const state = run([start(), positions(), chunk(0, 'A.'), chunk(1, 'B.'), chunk(2, 'C.'), complete()]);
    expect(state.phase).toBe('complete');
    expect(state.chunks.map((c) => c.status)).toEqual(['ready', 'ready', 'ready']);
    expect(rephrasedOutput(state)).toBe('A.\n\nB.\n\nC.\n');
    expect(statusTexts(state)).toEqual([]);
    expect(runPhase(state)).toBe('idle');
    expect(isBusy(state)).toBe(false);
  });

  it('uses the baseText of the positions event', () => {
    const base = 'x\n\ny';
    const state = run([
      start(1, 'x\r\n\r\ny'),
      ev({
        type: 'chunk_positions',
        chunkPositions: [
          { start: 0, end: 1 },
          { start: 3, end: 4 },
        ],
        baseText: base,
      }),
      chunk(0, 'X'),
      chunk(1, 'Y'),
      complete(),
    ]);
    expect(state.chunks.map((c) => c.original)).toEqual(['x', 'y']);
    expect(rephrasedOutput(state)).toBe('X\n\nY');
  });

  it('resets a rerolled chunk and shows the placeholder until new text replaces it', () => {
    let state = run([start(), positions(), chunk(0, 'A.'), chunk(1, 'Bad')]);
    state = run([ev({ type: 'chunk_reroll', chunkIndex: 1, reason: 'too similar' })], state);
    expect(state.chunks[1]).toMatchObject({ rephrased: '', status: 'streaming', error: 'too similar', attempts: 2 });
    expect(rephrasedOutput(state)).toBe('A.\n\nError converting chunk 2: too similar');
    expect(statusTexts(state)).toEqual(['(streaming...)', '(rerolling 1 chunk(s)...)']);

    state = run([chunk(1, 'Better.')], state);
    expect(state.chunks[1]).toMatchObject({ rephrased: 'Better.', error: null });
    expect(rephrasedOutput(state)).toBe('A.\n\nBetter.');
    expect(statusTexts(state)).toEqual(['(streaming...)']);
  });

  it('shows the error marker of a chunk whose attempts ran out in both views, and skips it for editing', () => {
    const state = run(chunk2Failed);
    expect(rephrasedOutput(state)).toBe('A.\n\n[Error converting chunk 2: no luck]\n\nC.\n');
    expect(editPassTargets(state.chunks)).toEqual([0, 2]);
    // The edited view never drops a part of the text: the failed chunk says so there too.
    expect(mixedOutput(state)).toBe('A.\n\n[Error converting chunk 2: no luck]\n\nC.\n');
    expect(state.chunks.map(isNotRewritten)).toEqual([false, true, false]);
  });

  it('on an error event shows the message, stops streaming and drops the partial chunk', () => {
    const state = run([
      start(),
      positions(),
      chunk(0, 'A.'),
      chunk(1, 'Half'),
      ev({ type: 'error', error: 'The Voice went to sleep' }),
    ]);
    expect(state.phase).toBe('error');
    expect(state.error).toBe('The Voice went to sleep');
    expect(state.chunks.map((c) => c.rephrased)).toEqual(['A.', '', '']);
    expect(rephrasedOutput(state)).toBe('A.');
    expect(statusTexts(state)).toEqual([]);
  });

  it('falls back to "Failed to convert text" for an error event without text', () => {
    expect(run([start(), ev({ type: 'error' } as ConvertStreamEvent)]).error).toBe('Failed to convert text');
  });

  it('ignores the actions of a stale run', () => {
    let state = run([start(1), positions(1), chunk(0, 'old')]);
    state = run([start(2), positions(2), chunk(0, 'new', 2)], state);
    state = run([chunk(0, ' stale', 1), complete(1), { type: 'fail', runId: 1, message: 'x' }], state);
    expect(state.runId).toBe(2);
    expect(state.phase).toBe('streaming');
    expect(state.chunks[0]?.rephrased).toBe('new');
  });

  it('ignores stream events after the run ended', () => {
    const done = run([start(), positions(), chunk(0, 'A.'), complete()]);
    expect(run([chunk(0, 'more'), ev({ type: 'error', error: 'late' })], done)).toBe(done);
  });

  it('grows the chunk list for chunk events when no positions came', () => {
    const state = run([start(), chunk(0, 'A'), chunk(1, 'B'), complete()]);
    expect(state.chunks.map((c) => c.rephrased)).toEqual(['A', 'B']);
    expect(rephrasedOutput(state)).toBe('AB');
  });

  it('a fail action with no message ends the run silently', () => {
    const state = run([start(), { type: 'fail', runId: 1, message: null }]);
    expect(state.phase).toBe('error');
    expect(state.error).toBeNull();
  });
});

describe('edit pass state', () => {
  const completed = () =>
    run([start(), positions(), chunk(0, 'A.'), chunk(1, ''), chunk(1, 'B.'), chunk(2, 'C.'), complete()]);

  it('tracks editing, edited and failed chunks and the x/y status', () => {
    let state = run([{ type: 'editPassStart', runId: 1, total: 3 }], completed());
    expect(runPhase(state)).toBe('editing');
    expect(statusTexts(state)).toEqual(['(editing 0/3...)']);

    state = run(
      [
        { type: 'chunkEditStart', runId: 1, index: 0 },
        { type: 'chunkEditStart', runId: 1, index: 1 },
        { type: 'chunkEdited', runId: 1, index: 0, text: 'A!' },
        { type: 'chunkEditFailed', runId: 1, index: 1, error: 'Failed to edit chunk' },
      ],
      state,
    );
    expect(state.chunks.map((c) => c.status)).toEqual(['edited', 'failed', 'ready']);
    expect(state.chunks[1]?.error).toBe('Failed to edit chunk');
    expect(statusTexts(state)).toEqual(['(editing 2/3...)']);
    expect(isBusy(state)).toBe(true);

    state = run([{ type: 'editPassEnd', runId: 1, stopped: false }], state);
    expect(state.editPass.status).toBe('done');
    expect(statusTexts(state)).toEqual([]);
    expect(isBusy(state)).toBe(false);
    // Mixed view: edited, else rephrased.
    expect(mixedOutput(state)).toBe('A!\n\nB.\n\nC.\n');
    expect(rephrasedOutput(state)).toBe('A.\n\nB.\n\nC.\n');
  });

  it('does not start an edit pass before the conversion completed', () => {
    const streaming = run([start(), positions()]);
    expect(run([{ type: 'editPassStart', runId: 1, total: 1 }], streaming).editPass.status).toBe('off');
  });

  it('keeps the original of a chunk with nothing rephrased in the mixed output, and skips its edit', () => {
    const state = run([start(), positions(), chunk(0, 'A.'), chunk(2, 'C.'), complete()]);
    expect(editPassTargets(state.chunks)).toEqual([0, 2]);
    expect(mixedOutput(state)).toBe('A.\n\nSecond para.\n\nC.\n');
    expect(state.chunks.map(isNotRewritten)).toEqual([false, true, false]);
  });

  it('a retry keeps the other chunks proofread, and its own pass counts on from theirs', () => {
    let state = run([
      ...chunk2Failed,
      { type: 'editPassStart', runId: 1, total: 2 },
      { type: 'chunkEdited', runId: 1, index: 0, text: 'A!' },
      { type: 'chunkEdited', runId: 1, index: 2, text: 'C!' },
      { type: 'editPassEnd', runId: 1, stopped: false },
    ]);
    state = run([{ type: 'retryStart', runId: 2, indexes: [1] }], state);
    expect(state.editPass.status).toBe('done');
    expect(state.chunks.map((c) => c.status)).toEqual(['edited', 'streaming', 'edited']);
    state = run(
      [
        { type: 'chunkRetried', runId: 2, index: 1, text: 'B.' },
        { type: 'retryEnd', runId: 2 },
        { type: 'editPassStart', runId: 2, total: 1 },
      ],
      state,
    );
    expect(statusTexts(state)).toEqual(['(editing 2/3...)']);
    state = run(
      [
        { type: 'chunkEdited', runId: 2, index: 1, text: 'B!' },
        { type: 'editPassEnd', runId: 2, stopped: false },
      ],
      state,
    );
    expect(mixedOutput(state)).toBe('A!\n\nB!\n\nC!\n');
    expect(state.chunks.map(isNotRewritten)).toEqual([false, false, false]);
  });
});
