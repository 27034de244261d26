// One Voice, asked for again every 5 s while it trains, in a background tab too (its title says
// when the Voice is ready). When training ends, the dashboard's list is refreshed too, so it
// shows the new status at once. An id that cannot be a Voice's is never asked for.
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { voiceKeys } from '../../../lib/voice-queries';
import { fetchVoice } from '../api';
import { isTrainingStatus, trainingPollInterval } from '../training-status';
import { isVoiceId } from '../voice-missing';

export function useVoice(id: string) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: voiceKeys.one(id),
    queryFn: ({ signal }) => fetchVoice(id, signal),
    enabled: isVoiceId(id),
    refetchInterval: (current) => trainingPollInterval(current.state.data, current.state.error),
    refetchIntervalInBackground: true,
    staleTime: 0,
  });

  const status = query.data?.status;
  useEffect(() => {
    if (status !== undefined && !isTrainingStatus(status)) {
      void queryClient.invalidateQueries({ queryKey: voiceKeys.mine });
    }
  }, [status, queryClient]);

  return query;
}
