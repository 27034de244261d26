// Several packs in one checkout, for an action that needs more than one resource (a Voice needs a
// storage slot and a training): one payment, one grant of everything in it. Where a single text
// must name them (Stripe's metadata, the offline checkout's row) they are a comma-joined list, the
// pack asked for first; a single pack reads exactly as it always did.
import { PACK_IDS, PACKS, type PackId } from './catalog.js';
import { type PackGrant, packGrant } from './grants.js';

/** Most packs one checkout holds: one per resource. */
export const MAX_PACKS_PER_CHECKOUT = 5;

export const encodePacks = (packs: readonly PackId[]): string => packs.join(',');

/** The packs a stored list names, or [] when it names none or something unknown. */
export function packsOf(value: string | null | undefined): PackId[] {
  if (!value) return [];
  const names = value.split(',');
  const packs = names.filter((name): name is PackId => (PACK_IDS as readonly string[]).includes(name));
  return packs.length === names.length && new Set(packs).size === packs.length ? packs : [];
}

/** What paying for several packs at once costs, in cents. */
export const packsPriceCents = (packs: readonly PackId[]): number =>
  packs.reduce((sum, pack) => sum + PACKS[pack].priceCents, 0);

/** Everything several packs paid together grant, as one grant. */
export function packsGrant(packs: readonly PackId[], paidAt: Date): PackGrant {
  const grants = packs.map((pack) => packGrant(pack, paidAt));
  return {
    tranches: grants.flatMap((grant) => grant.tranches),
    storageSlotsAdded: grants.reduce((sum, grant) => sum + grant.storageSlotsAdded, 0),
  };
}
