// Moves the onboarding step forward from the Create screen (spec §4); failures are only logged.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useRef } from 'react';
import { useSession } from '../../../app/session/session-context';

export function useAdvanceOnboarding() {
  const { advanceOnboarding, refresh } = useSession();
  const requested = useRef<Set<OnboardingStep>>(new Set());

  return useCallback(
    (target: OnboardingStep) => {
      // One request per target, however often it is asked for.
      if (requested.current.has(target)) return;
      requested.current.add(target);
      advanceOnboarding(target)
        .then(() => refresh())
        .catch((error: unknown) => {
          requested.current.delete(target);
          console.warn(`Could not move onboarding to ${target}`, error);
        });
    },
    [advanceOnboarding, refresh],
  );
}
