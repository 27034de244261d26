// Onboarding on the Convert screen: an awake Voice promotes the step to activation_tour_complete
// (the answer to that call becomes the session's user); a completed conversion at that step
// finishes the Convert quickstart and raises the flag that shows what comes next. Which panels
// the person closed is kept per step.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { useTourDismissal } from '../../../lib/session/use-tour-dismissal';
import { completesConvertQuickstart, mayPromoteToActivation } from '../onboarding';

export function useConvertOnboarding(userId: string, step: OnboardingStep, hasAwakeVoice: boolean) {
  const advance = useAdvanceOnboarding();
  const stepRef = useRef(step);
  useEffect(() => {
    stepRef.current = step;
  }, [step]);
  const tour = useTourDismissal(userId, 'convert', step);
  const quickstart = useTourDismissal(userId, 'convert-quickstart', step);
  const [firstConversionDone, setFirstConversionDone] = useState(false);

  useEffect(() => {
    if (mayPromoteToActivation(step, hasAwakeVoice)) advance('activation_tour_complete');
  }, [step, hasAwakeVoice, advance]);

  /** To be called when a conversion completed. */
  const onConversionComplete = useCallback(() => {
    if (!completesConvertQuickstart(stepRef.current)) return;
    setFirstConversionDone(true);
    advance('convert_quickstart_complete');
  }, [advance]);

  return {
    onConversionComplete,
    tour,
    quickstart,
    firstConversionDone,
    closeFirstConversionDone: useCallback(() => setFirstConversionDone(false), []),
  };
}
