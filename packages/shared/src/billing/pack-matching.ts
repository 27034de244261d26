// Which pack the purchase modal's quick top-up offers for the resource that ran out.
import type { ResourceKey } from '../constants.js';
import type { PackId } from './catalog.js';

export const PACK_FOR_RESOURCE = {
  modelsTrained: 'extra_model',
  activationHours: 'extra_activation_hours',
  chunkEdits: 'extra_chunk_edits',
  shortContent: 'extra_short_content',
  storageSlots: 'extra_storage_slots',
} as const satisfies Record<ResourceKey, PackId>;

/**
 * Words in a limit type and the pack each selects, tried in order. Storage comes first so that
 * "modelStorageSlots…" (a storage field that also says model) selects storage slots; "waking"
 * is the product's own word for activation hours.
 */
const PACK_WORDS: readonly [RegExp, PackId][] = [
  [/storage/i, 'extra_storage_slots'],
  [/model|train/i, 'extra_model'],
  [/activation|waking/i, 'extra_activation_hours'],
  [/proof|chunk/i, 'extra_chunk_edits'],
  [/short/i, 'extra_short_content'],
];

/** The pack for a blocked resource's limit type (a resource key or words), or null when none fits. */
export function packForLimitType(limitType: string | null | undefined): PackId | null {
  if (!limitType) return null;
  return PACK_WORDS.find(([pattern]) => pattern.test(limitType))?.[1] ?? null;
}
