import type { CreateEvent } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import type { ConvertStreamEvent } from '../../lib/rewrite/events';
import { type DraftAction, draftReducer, draftStatus, initialDraftState, rewriteEventsOf } from './draft';

const DRAFT = '# Title\n\nFirst para.\n\nSecond para.';

const stream = (): CreateEvent[] => [
  { type: 'generation_start', stage: 'content' },
  { type: 'thinking_start', stage: 'content' },
  { type: 'thinking', stage: 'content', text: 'Audience: ' },
  { type: 'thinking', stage: 'content', text: 'owners.' },
  { type: 'thinking_end', stage: 'content' },
  { type: 'content_chunk', stage: 'content', text: '# Title\n\nFirst' },
  { type: 'content_chunk', stage: 'content', text: ' para.\n\nSecond para.' },
  { type: 'generation_complete', stage: 'content', text: DRAFT },
  {
    type: 'chunk_positions',
    stage: 'rephrase',
    chunkPositions: [
      { start: 9, end: 20 },
      { start: 22, end: 34 },
    ],
    baseText: DRAFT,
  },
  { type: 'chunk', stage: 'rephrase', chunkIndex: 0, text: 'Para one.' },
  { type: 'chunk_reroll', stage: 'rephrase', chunkIndex: 1, reason: 'too short' },
  { type: 'chunk', stage: 'rephrase', chunkIndex: 1, text: 'Para two.' },
  { type: 'complete' },
];

const ev = (event: CreateEvent, runId = 1): DraftAction => ({ type: 'event', runId, event });
const run = (actions: readonly DraftAction[]) => actions.reduce(draftReducer, initialDraftState);

async function* iterate<T>(items: readonly T[]) {
  for (const item of items) yield item;
}

async function collect<T>(events: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const event of events) out.push(event);
  return out;
}

describe('draftReducer', () => {
  it('accumulates thinking, then the draft, in order', () => {
    const events = stream();
    let state = draftReducer(initialDraftState, { type: 'start', runId: 1 });
    expect(state.phase).toBe('generating');
    expect(draftStatus(state)).toBe('(thinking...)');

    state = run([{ type: 'start', runId: 1 }, ...events.slice(0, 4).map((e) => ev(e))]);
    expect(state.thinking).toBe('Audience: owners.');
    expect(state.thinkingActive).toBe(true);
    expect(draftStatus(state)).toBe('(thinking...)');

    state = run([{ type: 'start', runId: 1 }, ...events.slice(0, 6).map((e) => ev(e))]);
    expect(state.thinkingActive).toBe(false);
    expect(state.draft).toBe('# Title\n\nFirst');
    expect(draftStatus(state)).toBe('(drafting...)');

    state = run([{ type: 'start', runId: 1 }, ...events.map((e) => ev(e))]);
    expect(state).toMatchObject({ phase: 'drafted', draft: DRAFT, thinking: 'Audience: owners.' });
    expect(draftStatus(state)).toBeNull();
  });

  it('takes content-stage chunk events as draft text and ignores rephrase ones', () => {
    const state = run([
      { type: 'start', runId: 1 },
      ev({ type: 'chunk', stage: 'content', chunkIndex: 0, text: 'Hello' }),
      ev({ type: 'chunk', stage: 'rephrase', chunkIndex: 0, text: 'Howdy' }),
    ]);
    expect(state.draft).toBe('Hello');
  });

  it('takes the rewrite base text as the draft when generation_complete never came', () => {
    const state = run([
      { type: 'start', runId: 1 },
      ev({ type: 'content_chunk', stage: 'content', text: 'Partial' }),
      ev({ type: 'chunk_positions', stage: 'rephrase', chunkPositions: [], baseText: 'Whole draft.' }),
    ]);
    expect(state).toMatchObject({ phase: 'drafted', draft: 'Whole draft.' });
  });

  it('ignores actions of older runs and marks a run that ended early as failed', () => {
    let state = run([
      { type: 'start', runId: 1 },
      { type: 'start', runId: 2 },
      ev({ type: 'thinking', stage: 'content', text: 'x' }, 1),
    ]);
    expect(state.thinking).toBe('');
    state = draftReducer(state, ev({ type: 'content_chunk', stage: 'content', text: 'Half' }, 2));
    state = draftReducer(state, { type: 'end', runId: 2 });
    expect(state).toMatchObject({ phase: 'failed', draft: 'Half' });
    // An error event also stops it; a drafted run stays drafted when it ends.
    expect(run([{ type: 'start', runId: 1 }, ev({ type: 'error', error: 'boom' })]).phase).toBe('failed');
    const drafted = run([{ type: 'start', runId: 1 }, ...stream().map((e) => ev(e)), { type: 'end', runId: 1 }]);
    expect(drafted.phase).toBe('drafted');
  });
});

describe('rewriteEventsOf', () => {
  it('passes every event to onEvent and yields the rewrite stage as convert events, in order', async () => {
    const seen: CreateEvent[] = [];
    const out = await collect(rewriteEventsOf(iterate(stream()), (event) => seen.push(event)));
    expect(seen).toEqual(stream());
    expect(out).toEqual<ConvertStreamEvent[]>([
      {
        type: 'chunk_positions',
        chunkPositions: [
          { start: 9, end: 20 },
          { start: 22, end: 34 },
        ],
        baseText: DRAFT,
      },
      { type: 'chunk', chunkIndex: 0, text: 'Para one.' },
      { type: 'chunk_reroll', chunkIndex: 1, reason: 'too short' },
      { type: 'chunk', chunkIndex: 1, text: 'Para two.' },
      { type: 'complete' },
    ]);
  });

  it('an error without text says what failed: the generation, or the rewrite after the draft', async () => {
    const early = await collect(rewriteEventsOf(iterate<CreateEvent>([{ type: 'error', error: '' }]), () => undefined));
    expect(early).toEqual([{ type: 'error', error: 'Failed to generate content' }]);
    const late = await collect(
      rewriteEventsOf(
        iterate<CreateEvent>([
          { type: 'generation_complete', stage: 'content', text: 'Draft.' },
          { type: 'error', error: '' },
        ]),
        () => undefined,
      ),
    );
    expect(late).toEqual([{ type: 'error', error: 'Failed to convert text' }]);
    const said = await collect(
      rewriteEventsOf(iterate<CreateEvent>([{ type: 'error', error: 'Model busy' }]), () => undefined),
    );
    expect(said).toEqual([{ type: 'error', error: 'Model busy' }]);
  });
});
