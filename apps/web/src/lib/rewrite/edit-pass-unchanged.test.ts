// An edit pass that proofread the text and changed nothing says so beside the output, and only
// then: a pass that changed a chunk, one still running, or one that proofread nothing says nothing.
import { describe, expect, it } from 'vitest';
import {
  type ConversionAction,
  conversionReducer,
  editPassChangedNothing,
  initialConversionState,
  isUnchangedEdit,
  statusTexts,
} from './conversion';
import { CONVERT_STATUS } from './status';

const TEXT = 'Intro para.\n\nSecond para.\n';
const POSITIONS = [
  { start: 0, end: 11 },
  { start: 13, end: 25 },
];

/** A finished conversion ("A." and "B."), then an edit pass that returns `edits` for both chunks. */
function pass(edits: [string, string], end = true) {
  const actions: ConversionAction[] = [
    { type: 'start', runId: 1, text: TEXT },
    { type: 'event', runId: 1, event: { type: 'chunk_positions', chunkPositions: POSITIONS, baseText: TEXT } },
    { type: 'event', runId: 1, event: { type: 'chunk', chunkIndex: 0, text: 'A.' } },
    { type: 'event', runId: 1, event: { type: 'chunk', chunkIndex: 1, text: 'B.' } },
    { type: 'event', runId: 1, event: { type: 'complete' } },
    { type: 'editPassStart', runId: 1, total: 2 },
    { type: 'chunkEdited', runId: 1, index: 0, text: edits[0] },
    { type: 'chunkEdited', runId: 1, index: 1, text: edits[1] },
    ...(end ? [{ type: 'editPassEnd', runId: 1, stopped: false } as const] : []),
  ];
  return actions.reduce(conversionReducer, initialConversionState);
}

describe('an edit pass that changed nothing', () => {
  it('says so once the pass is over', () => {
    const state = pass(['A.', 'B.\n']);
    expect(editPassChangedNothing(state)).toBe(true);
    expect(state.chunks.every(isUnchangedEdit)).toBe(true);
    expect(statusTexts(state)).toEqual([CONVERT_STATUS.unchanged]);
    expect(CONVERT_STATUS.unchanged).toBe('(edit pass done: nothing needed changing)');
  });

  it('says nothing of the kind when a chunk changed, or while the pass runs', () => {
    const changed = pass(['A.', 'B!']);
    expect(editPassChangedNothing(changed)).toBe(false);
    expect(changed.chunks.map(isUnchangedEdit)).toEqual([true, false]);
    expect(statusTexts(changed)).toEqual([]);
    expect(statusTexts(pass(['A.', 'B.'], false))).toEqual(['(editing 2/2...)']);
  });

  it('says nothing when no edit pass ran', () => {
    const state = pass(['A.', 'B.']);
    expect(editPassChangedNothing({ ...state, editPass: { status: 'off', total: 0 } })).toBe(false);
  });
});
