// Onboarding on the Create screen: the Create tour, and the Create quickstart, which fills in the
// sample prompt when it opens and stays open until finished, closed or the step moves on. A
// generation completed during the quickstart finishes it too, and the wrap-up follows.
import type { OnboardingStep } from '@ownvoice/shared';
import { useCallback, useEffect, useState } from 'react';
import { useAdvanceOnboarding } from '../../../lib/session/use-advance-onboarding';
import { useTourDismissal } from '../../../lib/session/use-tour-dismissal';
import { SAMPLE_PROMPT } from '../constants';
import { completesCreateQuickstart, showsCreateQuickstart, showsCreateTour } from '../onboarding';

export function useCreateOnboarding(
  userId: string,
  step: OnboardingStep,
  prompt: string,
  setPrompt: (prompt: string) => void,
) {
  const advance = useAdvanceOnboarding();
  const tour = useTourDismissal(userId, 'create', step);
  const quickstart = useTourDismissal(userId, 'create-quickstart', step);
  const [quickstartOpened, setQuickstartOpened] = useState(false);
  const [wrapUp, setWrapUp] = useState(false);
  const quickstartShown = quickstartOpened && completesCreateQuickstart(step) && !quickstart.dismissed;

  useEffect(() => {
    if (quickstartOpened || quickstart.dismissed || !showsCreateQuickstart(step, prompt.trim() === '')) return;
    setQuickstartOpened(true);
    setPrompt(SAMPLE_PROMPT);
  }, [step, prompt, quickstartOpened, quickstart.dismissed, setPrompt]);

  const finishQuickstart = useCallback(() => {
    if (!completesCreateQuickstart(step)) return;
    setWrapUp(true);
    advance('create_quickstart_complete');
  }, [step, advance]);

  return {
    showsTour: showsCreateTour(step) && !tour.dismissed,
    finishTour: () => advance('rephrasing_tour_complete'),
    closeTour: tour.dismiss,
    showsQuickstart: quickstartShown && !wrapUp,
    fillSamplePrompt: () => setPrompt(SAMPLE_PROMPT),
    finishQuickstart,
    closeQuickstart: quickstart.dismiss,
    showsWrapUp: wrapUp,
    closeWrapUp: () => setWrapUp(false),
    /** To be called when a Quick generation completed. */
    onGenerationComplete: useCallback(() => {
      if (completesCreateQuickstart(step)) finishQuickstart();
    }, [step, finishQuickstart]),
  };
}
