// Onboarding on the Convert screen (spec §4): an awake Voice promotes the step to
// activation_tour_complete; a completed conversion at that step finishes the Convert quickstart.
// Failures are only logged.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useEffect, useRef } from 'react';
import { useSession } from '../../../app/session/session-context';
import { completesConvertQuickstart, mayPromoteToActivation } from '../onboarding';

export function useConvertOnboarding(step: OnboardingStep, hasAwakeVoice: boolean) {
  const { advanceOnboarding, refresh } = useSession();
  const requested = useRef<Set<OnboardingStep>>(new Set());
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  }, [step]);

  const advance = useCallback(
    (target: OnboardingStep) => {
      // One request per target, however often effects run.
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

  useEffect(() => {
    if (mayPromoteToActivation(step, hasAwakeVoice)) advance('activation_tour_complete');
  }, [step, hasAwakeVoice, advance]);

  /** To be called when a conversion completed. */
  const onConversionComplete = useCallback(() => {
    if (completesConvertQuickstart(stepRef.current)) advance('convert_quickstart_complete');
  }, [advance]);

  return { onConversionComplete };
}
