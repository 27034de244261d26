import type { CreateEvent } from '@ownvoice/shared';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../lib/api-error';
import {
  type ConversionAction,
  conversionReducer,
  initialConversionState,
  mixedOutput,
  rephrasedOutput,
} from '../../lib/rewrite/conversion';
import { type CreateRunDeps, runCreate } from './create-run';
import { type DraftAction, draftReducer, initialDraftState } from './draft';
import { generateRequestError } from './errors';

const DRAFT = 'One.\n\nTwo.';
const events = (): CreateEvent[] => [
  { type: 'generation_start', stage: 'content' },
  { type: 'thinking_start', stage: 'content' },
  { type: 'thinking', stage: 'content', text: 'Plan.' },
  { type: 'thinking_end', stage: 'content' },
  { type: 'content_chunk', stage: 'content', text: DRAFT },
  { type: 'generation_complete', stage: 'content', text: DRAFT },
  {
    type: 'chunk_positions',
    stage: 'rephrase',
    chunkPositions: [
      { start: 0, end: 4 },
      { start: 6, end: 10 },
    ],
    baseText: DRAFT,
  },
  { type: 'chunk', stage: 'rephrase', chunkIndex: 0, text: 'Uno.' },
  { type: 'chunk', stage: 'rephrase', chunkIndex: 1, text: 'Dos.' },
  { type: 'complete' },
];

async function* iterate<T>(items: readonly T[], failWith?: Error) {
  for (const item of items) yield item;
  if (failWith) throw failWith;
}

function setup(overrides: Partial<CreateRunDeps> = {}) {
  const actions: ConversionAction[] = [];
  const draftActions: DraftAction[] = [];
  const controller = new AbortController();
  const deps: CreateRunDeps = {
    runId: 1,
    loraId: 'a'.repeat(24),
    request: { prompt: 'Write', format: 'free', referenceFile: null },
    signal: controller.signal,
    dispatch: (action) => actions.push(action),
    dispatchDraft: (action) => draftActions.push(action),
    openGenerateStream: async () => iterate(events()),
    editChunk: async ({ rephrasedChunk }) => `${rephrasedChunk}!`,
    editPassEnabled: () => false,
    handleInsufficientLimit: () => false,
    ...overrides,
  };
  const rewrite = () => actions.reduce(conversionReducer, initialConversionState);
  const draft = () => draftActions.reduce(draftReducer, initialDraftState);
  return { deps, rewrite, draft };
}

describe('runCreate', () => {
  it('streams the draft, then its rewrite, and sends the request with the Voice', async () => {
    const openGenerateStream = vi.fn(async () => iterate(events()));
    const onComplete = vi.fn();
    const { deps, rewrite, draft } = setup({ openGenerateStream, onComplete });
    const state = await runCreate(deps);
    expect(openGenerateStream).toHaveBeenCalledWith(
      expect.objectContaining({ prompt: 'Write', format: 'free', loraId: 'a'.repeat(24) }),
    );
    expect(state.phase).toBe('complete');
    expect(rewrite()).toEqual(state);
    expect(rephrasedOutput(state)).toBe('Uno.\n\nDos.');
    expect(draft()).toMatchObject({ phase: 'drafted', draft: DRAFT, thinking: 'Plan.' });
    expect(onComplete).toHaveBeenCalledOnce();
  });

  it('runs the edit pass against the draft chunks once the rewrite is complete', async () => {
    const editChunk = vi.fn(async ({ rephrasedChunk }: { rephrasedChunk: string }) => `${rephrasedChunk}!`);
    const { deps } = setup({ editChunk, editPassEnabled: () => true });
    const state = await runCreate(deps);
    expect(editChunk.mock.calls.map(([payload]) => payload)).toEqual([
      { originalChunk: 'One.', rephrasedChunk: 'Uno.', chunkIndex: 0 },
      { originalChunk: 'Two.', rephrasedChunk: 'Dos.', chunkIndex: 1 },
    ]);
    expect(state.editPass.status).toBe('done');
    expect(mixedOutput(state)).toBe('Uno.!\n\nDos.!');
  });

  it('a refused request shows the server message, or HTTP error! status: n', async () => {
    const refused = setup({
      openGenerateStream: async () => {
        throw generateRequestError(400, '{"msg":"Please enter a prompt","code":"VALIDATION_ERROR"}');
      },
    });
    expect((await runCreate(refused.deps)).error).toBe('Please enter a prompt');
    expect(refused.draft().phase).toBe('failed');

    const bare = setup({
      openGenerateStream: async () => {
        throw generateRequestError(502, '<html>Bad gateway</html>');
      },
    });
    expect((await runCreate(bare.deps)).error).toBe('HTTP error! status: 502');
  });

  it('out of short content: the purchase prompt opens and no message shows', async () => {
    const handleInsufficientLimit = vi.fn(() => true);
    const { deps } = setup({
      handleInsufficientLimit,
      openGenerateStream: async () => {
        throw generateRequestError(400, '{"msg":"Out","reason":"insufficient_limit","limitType":"shortContent"}');
      },
    });
    const state = await runCreate(deps);
    expect(handleInsufficientLimit).toHaveBeenCalledWith(expect.any(ApiError));
    expect(state).toMatchObject({ phase: 'error', error: null });
  });

  it('a request that got no answer says what broke, else Unknown error', async () => {
    const network = setup({
      openGenerateStream: async () => {
        throw new TypeError('Failed to fetch');
      },
    });
    expect((await runCreate(network.deps)).error).toBe('Failed to fetch');
    const odd = setup({
      openGenerateStream: async () => {
        throw 'odd';
      },
    });
    expect((await runCreate(odd.deps)).error).toBe('Unknown error');
  });

  it('an error event during generation fails the run and the draft', async () => {
    const { deps, draft } = setup({
      openGenerateStream: async () =>
        iterate<CreateEvent>([
          { type: 'generation_start', stage: 'content' },
          { type: 'content_chunk', stage: 'content', text: 'Half' },
          { type: 'error', error: '' },
        ]),
    });
    const state = await runCreate(deps);
    expect(state).toMatchObject({ phase: 'error', error: 'Failed to generate content' });
    expect(draft()).toMatchObject({ phase: 'failed', draft: 'Half' });
  });

  it('an aborted run stops quietly', async () => {
    const controller = new AbortController();
    const { deps, rewrite } = setup({
      signal: controller.signal,
      openGenerateStream: async () => {
        controller.abort();
        return iterate(events());
      },
    });
    await runCreate(deps);
    expect(rewrite().phase).toBe('streaming');
  });
});
