// A rewrite's events as the whole passages a client receives: out only once taken (a reroll never
// reaches the client), in the original's layout, a failed passage as the original has it.
import { type CreateEvent, chunkErrorMarker, stitch } from '@ownvoice/shared';
import { describe, expect, it } from 'vitest';
import { AppError } from '../errors.js';
import { takenPassages } from './taken-passages.js';

const DRAFT = 'First passage here.\n\nSecond passage here.\n\nThird one.';
const spans = [
  { start: 0, end: 19 },
  { start: 21, end: 41 },
  { start: 43, end: 53 },
];

async function answer(events: CreateEvent[]) {
  const pieces: string[] = [];
  const inVoice: boolean[] = [];
  const gen = takenPassages(
    (async function* () {
      yield* events;
    })(),
  );
  for (let step = await gen.next(); ; step = await gen.next()) {
    if (step.done) return { pieces, inVoice, counts: step.value };
    pieces.push(step.value.text);
    inVoice.push(step.value.inVoice);
  }
}

const chunk = (chunkIndex: number, text: string): CreateEvent => ({
  type: 'chunk',
  stage: 'rephrase',
  chunkIndex,
  text,
});

describe('takenPassages', () => {
  it('sends each passage whole once taken, in the layout, the failed one as drafted', async () => {
    const { pieces, inVoice, counts } = await answer([
      { type: 'generation_complete', stage: 'content', text: DRAFT },
      { type: 'chunk_positions', stage: 'rephrase', chunkPositions: spans, baseText: DRAFT },
      chunk(0, 'The first, '),
      { type: 'chunk_reroll', stage: 'rephrase', chunkIndex: 0, reason: 'too short' },
      chunk(0, 'Here is the first.'),
      chunk(1, 'Rejected words'),
      { type: 'chunk_reroll', stage: 'rephrase', chunkIndex: 1, reason: 'repeats' },
      chunk(1, chunkErrorMarker(1, 'repeats')),
      chunk(2, 'The third.'),
      { type: 'complete' },
    ]);
    expect(pieces).toEqual(['Here is the first.', '\n\nSecond passage here.', '\n\nThe third.']);
    expect(pieces.join('')).toBe(
      stitch(['Here is the first.', 'Second passage here.', 'The third.'], ['', '\n\n', '\n\n', '']),
    );
    expect(inVoice).toEqual([true, false, true]);
    expect(counts).toEqual({ passages: 3, passagesInVoice: 2, failed: [1] });
  });

  it('throws the error an error event carries', async () => {
    const error = await answer([
      { type: 'error', code: 'ENGINE_UNAVAILABLE', error: 'The model wrote nothing for this prompt.' },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ statusCode: 503, code: 'ENGINE_UNAVAILABLE' });
  });
});
