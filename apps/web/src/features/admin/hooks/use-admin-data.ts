// Admin console queries; an MFA_REQUIRED refusal is not retried (the page shows the warning).
import type { AdminUsersQuery } from '@ownvoice/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-error';
import { fetchAdminOverview, fetchAdminUsers } from '../api';

const noRetryOnRefusal = (count: number, error: unknown) => !(isApiError(error) && error.status < 500) && count < 2;

export const useAdminOverview = () =>
  useQuery({
    queryKey: ['admin', 'overview'],
    queryFn: ({ signal }) => fetchAdminOverview(signal),
    retry: noRetryOnRefusal,
  });

export const useAdminUsers = (query: AdminUsersQuery) =>
  useQuery({
    queryKey: ['admin', 'users', query],
    queryFn: ({ signal }) => fetchAdminUsers(query, signal),
    retry: noRetryOnRefusal,
    placeholderData: keepPreviousData,
  });

/** True when the server refused because the admin has not turned two-factor on. */
export const needsMfa = (error: unknown): boolean => isApiError(error) && error.code === 'MFA_REQUIRED';
