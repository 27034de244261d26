import { describe, expect, it } from 'vitest';
import { RESOURCE_KEYS, RESOURCE_LABELS } from '../constants.js';
import { PACKS } from './catalog.js';
import { PACK_FOR_RESOURCE, packForLimitType } from './pack-matching.js';

describe('packForLimitType', () => {
  it('offers the pack of the same resource for every resource key and label', () => {
    for (const key of RESOURCE_KEYS) {
      expect(PACKS[PACK_FOR_RESOURCE[key]].resource).toBe(key);
      expect(packForLimitType(key)).toBe(PACK_FOR_RESOURCE[key]);
      expect(packForLimitType(RESOURCE_LABELS[key])).toBe(PACK_FOR_RESOURCE[key]);
    }
  });

  it('matches the words: model or train, activation, proof or chunk, short, storage', () => {
    expect(packForLimitType('No model training left')).toBe('extra_model');
    expect(packForLimitType('TRAININGS')).toBe('extra_model');
    expect(packForLimitType('activation')).toBe('extra_activation_hours');
    expect(packForLimitType('proofreading')).toBe('extra_chunk_edits');
    expect(packForLimitType('chunk')).toBe('extra_chunk_edits');
    expect(packForLimitType('short')).toBe('extra_short_content');
    expect(packForLimitType('storage')).toBe('extra_storage_slots');
  });

  it('gives storage precedence over model, so a storage field naming models selects storage slots', () => {
    expect(packForLimitType('modelStorageSlotsTotal')).toBe('extra_storage_slots');
  });

  it('offers nothing when no word fits', () => {
    expect(packForLimitType('credits')).toBeNull();
    expect(packForLimitType('')).toBeNull();
    expect(packForLimitType(null)).toBeNull();
    expect(packForLimitType(undefined)).toBeNull();
  });
});
