import { describe, expect, it } from 'vitest';
import { packGrant } from './grants.js';
import { encodePacks, packsGrant, packsOf, packsPriceCents } from './pack-lists.js';

describe('pack lists', () => {
  it('read back what they wrote; a single pack reads as it always did', () => {
    expect(packsOf(encodePacks(['extra_storage_slots', 'extra_model']))).toEqual([
      'extra_storage_slots',
      'extra_model',
    ]);
    expect(packsOf('extra_chunk_edits')).toEqual(['extra_chunk_edits']);
  });

  it('name nothing when anything in them is unknown or repeated', () => {
    expect(packsOf(null)).toEqual([]);
    expect(packsOf('extra_chunk_edits,nonsense')).toEqual([]);
    expect(packsOf('extra_chunk_edits,extra_chunk_edits')).toEqual([]);
  });

  it('cost and grant what their packs do together', () => {
    const paidAt = new Date('2026-11-26T12:00:00Z');
    expect(packsPriceCents(['extra_storage_slots', 'extra_model'])).toBe(1499 + 899);
    const grant = packsGrant(['extra_storage_slots', 'extra_model'], paidAt);
    expect(grant.storageSlotsAdded).toBe(packGrant('extra_storage_slots', paidAt).storageSlotsAdded);
    expect(grant.tranches).toEqual(packGrant('extra_model', paidAt).tranches);
  });
});
