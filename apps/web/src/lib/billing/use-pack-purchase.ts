// Buying a pack from the plans page, or the packs an action needs from the purchase modal: start
// the one checkout and leave for it, or say why not.
import type { PackId } from '@ownvoice/shared';
import { useState } from 'react';
import { useSession } from '../session/session-context';
import { checkoutFailureMessage } from './billing-messages';
import { buyPacks } from './plan-checkout';

export function usePackPurchase() {
  const { user } = useSession();
  const [busyPack, setBusyPack] = useState<PackId | null>(null);
  const [error, setError] = useState<string | null>(null);

  /** `returnTo`: the page to offer coming back to after paying; null from the plans page. */
  const buy = async (packs: readonly [PackId, ...PackId[]], returnTo: string | null) => {
    setError(null);
    setBusyPack(packs[0]);
    try {
      await buyPacks(packs, { user, returnTo });
      // On the way to the checkout: the button stays busy until the tab leaves.
    } catch (e) {
      setError(checkoutFailureMessage(e));
      setBusyPack(null);
    }
  };

  return { busyPack, error, clearError: () => setError(null), buy };
}
