// Where the auth screen sends the user after success: the redirect it was given (a path on
// this site), else the default for the tab.
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { safeRedirectTarget } from '../../../lib/paths';

export function useAuthTarget(fallback: string): () => void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirectTarget(params.get('redirect')) ?? fallback;
  return useCallback(() => navigate(target, { replace: true }), [navigate, target]);
}
