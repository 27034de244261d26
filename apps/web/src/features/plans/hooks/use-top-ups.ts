// Buying a top-up pack from the plans page: one checkout at a time (the shared pack purchase),
// its failure said in the page's red box, which a new try clears.
import type { PackId } from '@ownvoice/shared';
import { useEffect } from 'react';
import { type BillingProblem, plainProblem } from '../../../lib/billing/billing-problem';
import { usePackPurchase } from '../../../lib/billing/use-pack-purchase';

export function useTopUps(onError: (problem: BillingProblem | null) => void) {
  const { busyPack, error, buy } = usePackPurchase();
  useEffect(() => {
    if (error) onError(plainProblem(error));
  }, [error, onError]);

  return {
    busyPack,
    buy: (pack: PackId) => {
      onError(null);
      void buy([pack], null);
    },
  };
}
