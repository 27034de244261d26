// Moves the onboarding step forward from a screen: one request per target step however
// often a screen asks, and failures only logged. The session takes the user the call returns.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useRef } from 'react';
import { useSession } from './session-context';

export function useAdvanceOnboarding() {
  const { advanceOnboarding } = useSession();
  const requested = useRef<Set<OnboardingStep>>(new Set());

  return useCallback(
    (target: OnboardingStep) => {
      if (requested.current.has(target)) return;
      requested.current.add(target);
      advanceOnboarding(target).catch((error: unknown) => {
        requested.current.delete(target);
        console.warn(`Could not move onboarding to ${target}`, error);
      });
    },
    [advanceOnboarding],
  );
}
