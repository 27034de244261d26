// Admin console queries. A refusal (MFA_REQUIRED, FORBIDDEN) is an answer, not retried (the
// query client's default); the page shows the two-factor warning for MFA_REQUIRED.
import type { AdminUsersQuery } from '@ownvoice/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-error';
import { fetchAdminOverview, fetchAdminUsers } from '../api';

export const useAdminOverview = () =>
  useQuery({ queryKey: ['admin', 'overview'], queryFn: ({ signal }) => fetchAdminOverview(signal) });

export const useAdminUsers = (query: AdminUsersQuery) =>
  useQuery({
    queryKey: ['admin', 'users', query],
    queryFn: ({ signal }) => fetchAdminUsers(query, signal),
    placeholderData: keepPreviousData,
  });

/** True when the server refused because the admin has not turned two-factor on. */
export const needsMfa = (error: unknown): boolean => isApiError(error) && error.code === 'MFA_REQUIRED';
