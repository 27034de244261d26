import { describe, expect, it } from 'vitest';
import { conversionReducer, initialConversionState } from '../../lib/rewrite/conversion';
import { submitLabel } from './submit-label';

describe('submitLabel', () => {
  it('reads Convert, Converting... and Editing...', () => {
    expect(submitLabel(initialConversionState)).toBe('Convert');
    const streaming = conversionReducer(initialConversionState, { type: 'start', runId: 1, text: 'Hi.' });
    expect(submitLabel(streaming)).toBe('Converting...');
    const complete = conversionReducer(streaming, { type: 'event', runId: 1, event: { type: 'complete' } });
    expect(submitLabel(complete)).toBe('Convert');
    const editing = conversionReducer(complete, { type: 'editPassStart', runId: 1, total: 1 });
    expect(submitLabel(editing)).toBe('Editing...');
  });
});
