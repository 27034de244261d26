// Goes where the auth screen should send this person after success (auth-target.ts).
import type { User } from '@ownvoice/shared';
import { useCallback } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { authTarget } from '../auth-target';

export function useAuthTarget(fallback: string): (user: User) => void {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const redirect = params.get('redirect');
  return useCallback(
    (user: User) => navigate(authTarget(redirect, fallback, user), { replace: true }),
    [navigate, redirect, fallback],
  );
}
