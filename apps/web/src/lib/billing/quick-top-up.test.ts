import { describe, expect, it } from 'vitest';
import { quickTopUpPack } from './quick-top-up';

const selling = { kind: 'selling', testMode: false } as const;

describe('quickTopUpPack', () => {
  it('offers the pack of the resource that ran out', () => {
    expect(quickTopUpPack({ kind: 'limit', resource: 'modelsTrained' }, selling)).toBe('extra_model');
    expect(quickTopUpPack({ kind: 'limit', resource: 'activationHours' }, selling)).toBe('extra_activation_hours');
    expect(quickTopUpPack({ kind: 'limit', resource: 'chunkEdits' }, selling)).toBe('extra_chunk_edits');
    expect(quickTopUpPack({ kind: 'limit', resource: 'shortContent' }, selling)).toBe('extra_short_content');
    expect(quickTopUpPack({ kind: 'limit', resource: 'storageSlots' }, selling)).toBe('extra_storage_slots');
  });

  it('offers nothing when no pack fits', () => {
    expect(quickTopUpPack({ kind: 'limit', resource: null }, selling)).toBeNull();
    expect(quickTopUpPack({ kind: 'credits', required: 10 }, selling)).toBeNull();
    expect(quickTopUpPack(null, selling)).toBeNull();
  });

  it('offers nothing where nothing is sold, or before that is known', () => {
    expect(quickTopUpPack({ kind: 'limit', resource: 'chunkEdits' }, { kind: 'none' })).toBeNull();
    expect(quickTopUpPack({ kind: 'limit', resource: 'chunkEdits' }, { kind: 'loading' })).toBeNull();
  });
});
