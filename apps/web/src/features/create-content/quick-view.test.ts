import { describe, expect, it } from 'vitest';
import { conversionReducer, initialConversionState } from '../../lib/rewrite/conversion';
import { draftReducer, initialDraftState } from './draft';
import { canRerephrase, createStatusTexts, generateLabel, isCreateBusy } from './quick-view';

const generating = draftReducer(initialDraftState, { type: 'start', runId: 1 });
const drafted = draftReducer(generating, {
  type: 'event',
  runId: 1,
  event: { type: 'generation_complete', stage: 'content', text: 'Draft.' },
});
const streaming = conversionReducer(initialConversionState, { type: 'start', runId: 1, text: '' });
const complete = conversionReducer(streaming, { type: 'event', runId: 1, event: { type: 'complete' } });
const editing = conversionReducer(complete, { type: 'editPassStart', runId: 1, total: 2 });

describe('quick view', () => {
  it('labels the button by what runs', () => {
    expect(generateLabel(initialDraftState, initialConversionState)).toBe('Generate Content');
    expect(generateLabel(generating, streaming)).toBe('Generating...');
    expect(generateLabel(drafted, streaming)).toBe('Rephrasing...');
    expect(generateLabel(drafted, editing)).toBe('Editing...');
    expect(generateLabel(drafted, complete)).toBe('Generate Content');
  });

  it('shows the rewrite status only once the draft is whole', () => {
    expect(createStatusTexts(generating, streaming)).toEqual([]);
    expect(createStatusTexts(drafted, streaming)).toEqual(['(streaming...)']);
    expect(createStatusTexts(drafted, editing)).toEqual(['(editing 0/2...)']);
  });

  it('re-rephrases only a whole draft with nothing running', () => {
    expect(isCreateBusy(generating, streaming)).toBe(true);
    expect(canRerephrase(drafted, streaming)).toBe(false);
    expect(canRerephrase(drafted, complete)).toBe(true);
    expect(canRerephrase(drafted, editing)).toBe(false);
    expect(canRerephrase(initialDraftState, initialConversionState)).toBe(false);
  });
});
