import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../api-error';
import { forEachWithConcurrency } from './concurrency';
import {
  type ConversionAction,
  conversionReducer,
  initialConversionState,
  mixedOutput,
  statusTexts,
} from './conversion';
import { type ConversionRunDeps, runConversion } from './conversion-run';
import { convertRequestError } from './errors';
import type { ConvertStreamEvent, EditChunkPayload } from './events';

const TEXT = 'One.\n\nTwo.\n\nThree.\n\nFour.';
const POSITIONS = [
  { start: 0, end: 4 },
  { start: 6, end: 10 },
  { start: 12, end: 18 },
  { start: 20, end: 25 },
];

async function* eventsOf(events: readonly ConvertStreamEvent[], failWith?: Error) {
  for (const event of events) yield event;
  if (failWith) throw failWith;
}

const fullStream = (): ConvertStreamEvent[] => [
  { type: 'chunk_positions', chunkPositions: POSITIONS, baseText: TEXT },
  { type: 'chunk', chunkIndex: 0, text: 'Uno.' },
  { type: 'chunk', chunkIndex: 1, text: 'Dos.' },
  { type: 'chunk', chunkIndex: 2, text: '[Error converting chunk 3: gave up]' },
  { type: 'chunk', chunkIndex: 3, text: 'Cuatro.' },
  { type: 'complete' },
];

function setup(overrides: Partial<ConversionRunDeps> = {}) {
  const actions: ConversionAction[] = [];
  const controller = new AbortController();
  const deps: ConversionRunDeps = {
    runId: 1,
    loraId: 'voice-1',
    text: TEXT,
    signal: controller.signal,
    dispatch: (action) => actions.push(action),
    openStream: async () => eventsOf(fullStream()),
    editChunk: async ({ rephrasedChunk }) => `${rephrasedChunk}!`,
    editPassEnabled: () => false,
    handleInsufficientLimit: () => false,
    ...overrides,
  };
  // What the screen would show: the dispatched actions through the same reducer.
  const screen = () => actions.reduce(conversionReducer, initialConversionState);
  return { deps, actions, controller, screen };
}

describe('runConversion', () => {
  it('streams to completion and reports it', async () => {
    const onComplete = vi.fn();
    const { deps, screen } = setup({ onComplete });
    const state = await runConversion(deps);
    expect(state.phase).toBe('complete');
    expect(screen()).toEqual(state);
    expect(onComplete).toHaveBeenCalledOnce();
    expect(state.editPass.status).toBe('off');
  });

  it('runs the edit pass on every chunk but the skipped ones, with the right payloads', async () => {
    const payloads: EditChunkPayload[] = [];
    const { deps, screen } = setup({
      editPassEnabled: () => true,
      editChunk: async (payload) => {
        payloads.push(payload);
        return `${payload.rephrasedChunk}!`;
      },
    });
    const state = await runConversion(deps);
    expect(payloads).toEqual([
      { originalChunk: 'One.', rephrasedChunk: 'Uno.', chunkIndex: 0 },
      { originalChunk: 'Two.', rephrasedChunk: 'Dos.', chunkIndex: 1 },
      { originalChunk: 'Four.', rephrasedChunk: 'Cuatro.', chunkIndex: 3 },
    ]);
    expect(state.editPass).toEqual({ status: 'done', total: 3 });
    expect(state.chunks.map((c) => c.status)).toEqual(['edited', 'edited', 'ready', 'edited']);
    expect(mixedOutput(state)).toBe('Uno.!\n\nDos.!\n\n[Error converting chunk 3: gave up]\n\nCuatro.!');
    expect(screen()).toEqual(state);
  });

  it('never has more than three edits in flight', async () => {
    let inFlight = 0;
    let most = 0;
    const events: ConvertStreamEvent[] = [
      {
        type: 'chunk_positions',
        chunkPositions: Array.from({ length: 8 }, (_, i) => ({ start: i, end: i + 1 })),
        baseText: '01234567',
      },
      ...Array.from({ length: 8 }, (_, i): ConvertStreamEvent => ({ type: 'chunk', chunkIndex: i, text: `c${i}` })),
      { type: 'complete' },
    ];
    const { deps } = setup({
      text: 'abcdefgh',
      openStream: async () => eventsOf(events),
      editPassEnabled: () => true,
      editChunk: async ({ rephrasedChunk }) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 5));
        inFlight -= 1;
        return rephrasedChunk.toUpperCase();
      },
    });
    const state = await runConversion(deps);
    expect(most).toBe(3);
    expect(state.chunks.every((c) => c.status === 'edited')).toBe(true);
  });

  it('marks a chunk whose edit failed, with the server message or the fallback', async () => {
    const { deps } = setup({
      editPassEnabled: () => true,
      editChunk: async ({ chunkIndex }) => {
        if (chunkIndex === 0) throw new ApiError({ status: 500, msg: 'Editor model crashed' });
        if (chunkIndex === 1) throw new Error('');
        return 'fine';
      },
    });
    const state = await runConversion(deps);
    expect(state.chunks.map((c) => [c.status, c.error])).toEqual([
      ['failed', 'Editor model crashed'],
      ['failed', 'Failed to edit chunk'],
      ['ready', null],
      ['edited', null],
    ]);
    expect(state.editPass.status).toBe('done');
  });

  it('stops the pass when proofreads ran out and opens the purchase prompt', async () => {
    const limit = new ApiError({
      status: 400,
      msg: 'Out of proofreads',
      reason: 'insufficient_limit',
      limitType: 'chunkEdits',
    });
    const handled: unknown[] = [];
    const edits: number[] = [];
    const { deps } = setup({
      editPassEnabled: () => true,
      concurrency: 1,
      handleInsufficientLimit: (error) => {
        handled.push(error);
        return error === limit;
      },
      editChunk: async ({ chunkIndex }) => {
        edits.push(chunkIndex);
        if (chunkIndex === 1) throw limit;
        return 'ok';
      },
    });
    const state = await runConversion(deps);
    expect(edits).toEqual([0, 1]);
    expect(handled).toEqual([limit]);
    expect(state.editPass.status).toBe('stopped');
    // Nothing silent: the chunks the pass did not get to say so (chunk 3 was never a target).
    expect(state.chunks.map((c) => c.status)).toEqual(['edited', 'unproofread', 'ready', 'unproofread']);
  });

  it('asks before the pass how many proofreads to spend, and marks the rest as not proofread', async () => {
    const asked: number[] = [];
    const edits: number[] = [];
    const { deps, screen } = setup({
      editPassEnabled: () => true,
      planEditPass: async (needed) => {
        asked.push(needed);
        return 2;
      },
      editChunk: async ({ chunkIndex, rephrasedChunk }) => {
        edits.push(chunkIndex);
        return `${rephrasedChunk}!`;
      },
    });
    const state = await runConversion(deps);
    expect(asked).toEqual([3]);
    expect(edits.sort()).toEqual([0, 1]);
    expect(state.chunks.map((c) => c.status)).toEqual(['edited', 'edited', 'ready', 'unproofread']);
    expect(state.editPass).toEqual({ status: 'done', total: 2 });
    expect(statusTexts(screen())).toEqual(['(1 chunk(s) not proofread: out of proofreads)']);
  });

  it('proofreads nothing when the person chose to skip, and says so', async () => {
    const editChunk = vi.fn(async () => 'never');
    const { deps } = setup({ editPassEnabled: () => true, planEditPass: async () => 0, editChunk });
    const state = await runConversion(deps);
    expect(editChunk).not.toHaveBeenCalled();
    expect(state.editPass.status).toBe('off');
    expect(statusTexts(state)).toEqual(['(3 chunk(s) not proofread: out of proofreads)']);
  });

  it('reads the edit-pass box when the conversion completes, not when it starts', async () => {
    let ticked = false;
    const { deps } = setup({
      editPassEnabled: () => ticked,
      openStream: async () => {
        ticked = true;
        return eventsOf(fullStream());
      },
    });
    expect((await runConversion(deps)).editPass.status).toBe('done');
  });

  it('reports an error event and runs no edit pass', async () => {
    const onComplete = vi.fn();
    const { deps } = setup({
      editPassEnabled: () => true,
      onComplete,
      openStream: async () =>
        eventsOf([fullStream()[0] as ConvertStreamEvent, { type: 'error', error: 'Voice is asleep' }]),
    });
    const state = await runConversion(deps);
    expect(state).toMatchObject({ phase: 'error', error: 'Voice is asleep' });
    expect(onComplete).not.toHaveBeenCalled();
  });

  it('reports a read failure with its message, else "Streaming error"', async () => {
    const broken = setup({ openStream: async () => eventsOf(fullStream().slice(0, 2), new Error('network lost')) });
    expect((await runConversion(broken.deps)).error).toBe('network lost');
    const silent = setup({ openStream: async () => eventsOf(fullStream().slice(0, 2), new Error('')) });
    expect((await runConversion(silent.deps)).error).toBe('Streaming error');
  });

  it('treats a body that ends without "complete" as a streaming error', async () => {
    const { deps } = setup({ openStream: async () => eventsOf(fullStream().slice(0, 3)) });
    const state = await runConversion(deps);
    expect(state).toMatchObject({ phase: 'error', error: 'Streaming error' });
    expect(state.chunks.map((c) => c.rephrased)).toEqual(['Uno.', '', '', '']);
  });

  it('reports a refused request with the server message and tells the caller', async () => {
    const refused = vi.fn();
    const error = convertRequestError(400, '{"msg":"The Voice is asleep. Wake it first.","code":"VOICE_NOT_READY"}');
    const { deps } = setup({ openStream: () => Promise.reject(error), onRequestRefused: refused });
    expect(await runConversion(deps)).toMatchObject({ phase: 'error', error: 'The Voice is asleep. Wake it first.' });
    expect(refused).toHaveBeenCalledWith(error);
  });

  it('opens the purchase prompt instead of a message when the request ran out of a resource', async () => {
    const error = convertRequestError(400, '{"msg":"No waking hours left","reason":"insufficient_limit"}');
    const { deps } = setup({
      openStream: () => Promise.reject(error),
      handleInsufficientLimit: (e) => e === error.apiError,
    });
    expect(await runConversion(deps)).toMatchObject({ phase: 'error', error: null });
  });

  it('says "Failed to convert text" when the request failed without an answer', async () => {
    const { deps } = setup({ openStream: () => Promise.reject(new TypeError('Failed to fetch')) });
    expect((await runConversion(deps)).error).toBe('Failed to convert text');
  });

  it('stops quietly once aborted by a newer run', async () => {
    const { deps, controller, actions } = setup({
      editPassEnabled: () => true,
      openStream: async () =>
        (async function* () {
          yield fullStream()[0] as ConvertStreamEvent;
          controller.abort();
          yield fullStream()[1] as ConvertStreamEvent;
          yield { type: 'complete' } as ConvertStreamEvent;
        })(),
    });
    const state = await runConversion(deps);
    expect(state.phase).toBe('streaming');
    expect(actions.map((a) => a.type)).toEqual(['start', 'event']);
  });
});

describe('forEachWithConcurrency', () => {
  it('visits every item once, in order of start', async () => {
    const started: number[] = [];
    await forEachWithConcurrency([1, 2, 3, 4, 5], 2, async (n) => {
      started.push(n);
      await Promise.resolve();
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    await forEachWithConcurrency([], 3, async () => {
      throw new Error('never');
    });
  });
});
