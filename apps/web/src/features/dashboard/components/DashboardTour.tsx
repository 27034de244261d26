// The dashboard's onboarding panels: the tour at training_started, and at rephrasing_tour_complete
// the panel that follows the latest Voice, both from the panel about its state (../onboarding.ts).
import { Button } from '@mantine/core';
import type { Voice } from '@ownvoice/shared';
import { Link } from 'react-router';
import { TutorialPanel } from '../../../components/TutorialPanel';
import { PATHS } from '../../../lib/paths';
import { useCurrentUser } from '../../../lib/session/session-context';
import { useTourDismissal } from '../../../lib/session/use-tour-dismissal';
import { dashboardTourMode, dashboardTourPanels, dashboardTourTarget, followIndex, latestVoice } from '../onboarding';

export function DashboardTour({ voices }: { voices: readonly Voice[] }) {
  const user = useCurrentUser();
  const step = user.onboarding.step;
  const { dismissed, dismiss } = useTourDismissal(user.id || user._id, 'dashboard', step);
  const mode = dashboardTourMode(step);
  if (mode === null || dismissed) return null;

  const latest = latestVoice(voices);
  // The tour is about a Voice: someone who skipped creating one sees the empty dashboard's own call instead.
  if (!latest) return null;
  const panels = dashboardTourPanels(latest.status);
  if (panels === null) return null;
  const steps = panels.map(({ title, body, target }) => ({
    title,
    body,
    target: dashboardTourTarget(target, latest),
  }));

  return (
    <TutorialPanel
      // Each change of the Voice's status opens the panels for the new one.
      key={`${mode}-${followIndex(latest.status)}`}
      label="Dashboard tour"
      steps={steps}
      onClose={dismiss}
      testId="dashboard-tour"
      actions={
        mode === 'tour' && (
          <Button
            component={Link}
            to={PATHS.createContent}
            size="xs"
            variant="light"
            data-testid="dashboard-tour-create"
          >
            Take the Create tour
          </Button>
        )
      }
    />
  );
}
