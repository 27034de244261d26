// Whether the signed-in user closed a tour at their current step, and how to close it for good.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useState } from 'react';
import { browserStorage } from './browser-storage';
import { dismissTour, isTourDismissed, tourDismissalKey } from './tour-dismissals';

export function useTourDismissal(userId: string, tour: string, step: OnboardingStep) {
  const key = tourDismissalKey(userId, tour, step);
  // Closed in this visit, by key, so a step change shows the next guide without a reload.
  const [closedHere, setClosedHere] = useState<string | null>(null);
  const dismissed = closedHere === key || isTourDismissed(browserStorage(), key);
  const dismiss = useCallback(() => {
    dismissTour(browserStorage(), key);
    setClosedHere(key);
  }, [key]);
  return { dismissed, dismiss };
}
