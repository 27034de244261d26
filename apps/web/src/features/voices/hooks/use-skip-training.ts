// "Skip this step" on Voice creation: moves onboarding to training_started,
// which opens the dashboard, then goes there.
import { useMutation } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../../lib/api-error';
import { PATHS } from '../../../lib/paths';
import { useSession } from '../../../lib/session/session-context';
import { notifyError } from '../../../lib/toast';

export function useSkipTraining() {
  const session = useSession();
  const navigate = useNavigate();
  const mutation = useMutation({
    mutationFn: async () => {
      await session.advanceOnboarding('training_started');
      await session.refresh();
    },
    onSuccess: () => navigate(PATHS.dashboard),
    onError: (error) => notifyError(errorMessage(error, 'Failed to skip this step. Please try again.')),
  });
  return { skip: () => mutation.mutate(), pending: mutation.isPending };
}
