// Onboarding on the Convert screen: an awake Voice promotes the step to
// activation_tour_complete; a completed conversion at that step finishes the Convert quickstart.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useEffect, useRef } from 'react';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { completesConvertQuickstart, mayPromoteToActivation } from '../onboarding';

export function useConvertOnboarding(step: OnboardingStep, hasAwakeVoice: boolean) {
  const advance = useAdvanceOnboarding();
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  }, [step]);

  useEffect(() => {
    if (mayPromoteToActivation(step, hasAwakeVoice)) advance('activation_tour_complete');
  }, [step, hasAwakeVoice, advance]);

  /** To be called when a conversion completed. */
  const onConversionComplete = useCallback(() => {
    if (completesConvertQuickstart(stepRef.current)) advance('convert_quickstart_complete');
  }, [advance]);

  return { onConversionComplete };
}
