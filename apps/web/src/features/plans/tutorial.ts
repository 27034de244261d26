// Finish tutorial on the plans page: the last onboarding step, for someone who has done the
// Create quickstart and pays (or is on the trial, which is finished first).
import { mayFinishTutorial, type User } from '@ownvoice/shared';

export type FinishTutorialPlan = 'paid' | 'trial' | null;

/** Whether the page offers Finish tutorial, and whether the trial must be finished first. */
export function finishTutorialPlan(user: Pick<User, 'onboarding' | 'plan'>): FinishTutorialPlan {
  const { step } = user.onboarding;
  if (mayFinishTutorial(step, user.plan.name)) return 'paid';
  return step === 'create_quickstart_complete' && user.plan.name === 'trial' ? 'trial' : null;
}
