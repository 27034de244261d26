import { describe, expect, it } from 'vitest';
import { quickTopUpPacks } from './quick-top-up';

const selling = { kind: 'selling', testMode: false } as const;

describe('quickTopUpPacks', () => {
  it('offers the pack of the resource that ran out', () => {
    expect(quickTopUpPacks({ kind: 'limit', resource: 'modelsTrained' }, selling)).toEqual(['extra_model']);
    expect(quickTopUpPacks({ kind: 'limit', resource: 'activationHours' }, selling)).toEqual([
      'extra_activation_hours',
    ]);
    expect(quickTopUpPacks({ kind: 'limit', resource: 'chunkEdits' }, selling)).toEqual(['extra_chunk_edits']);
    expect(quickTopUpPacks({ kind: 'limit', resource: 'shortContent' }, selling)).toEqual(['extra_short_content']);
    expect(quickTopUpPacks({ kind: 'limit', resource: 'storageSlots' }, selling)).toEqual(['extra_storage_slots']);
  });

  it('offers one pack per resource the action lacks, for one checkout', () => {
    expect(quickTopUpPacks({ kind: 'limit', resource: 'storageSlots', also: ['modelsTrained'] }, selling)).toEqual([
      'extra_storage_slots',
      'extra_model',
    ]);
  });

  it('offers nothing when no pack fits', () => {
    expect(quickTopUpPacks({ kind: 'limit', resource: null }, selling)).toEqual([]);
    expect(quickTopUpPacks({ kind: 'credits', required: 10 }, selling)).toEqual([]);
    expect(quickTopUpPacks(null, selling)).toEqual([]);
  });

  it('offers nothing where nothing is sold, or before that is known', () => {
    expect(quickTopUpPacks({ kind: 'limit', resource: 'chunkEdits' }, { kind: 'none' })).toEqual([]);
    expect(quickTopUpPacks({ kind: 'limit', resource: 'chunkEdits' }, { kind: 'loading' })).toEqual([]);
  });
});
