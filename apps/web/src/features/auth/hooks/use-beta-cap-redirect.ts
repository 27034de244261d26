// On arrival the auth screen checks the beta headcount; once it reaches the cap, sign-up is
// closed and the visitor belongs on the waitlist. Only the register tab
// redirects: people who already have an account must still be able to log in
// (docs/decisions/0005-web-choices.md).
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { PATHS } from '../../../lib/paths';
import { fetchPublicStats, publicStatsKey } from '../api';

export function useBetaCapRedirect(enabled: boolean): void {
  const navigate = useNavigate();
  const { data } = useQuery({
    queryKey: publicStatsKey,
    queryFn: ({ signal }) => fetchPublicStats(signal),
    staleTime: 0,
  });
  useEffect(() => {
    if (enabled && data && data.userCount >= data.cap) navigate(PATHS.waitlist, { replace: true });
  }, [enabled, data, navigate]);
}
