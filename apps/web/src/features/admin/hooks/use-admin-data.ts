// Admin console queries. A refusal (MFA_REQUIRED, FORBIDDEN) is an answer, not retried (the
// query client's default); the page shows the two-factor warning for MFA_REQUIRED.
import type { ActivitiesQuery, AdminUsersQuery } from '@ownvoice/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { isApiError } from '../../../lib/api-error';
import {
  fetchAdminMail,
  fetchAdminMailText,
  fetchAdminOverview,
  fetchAdminUsers,
  fetchBillingStatus,
  fetchConfirmation,
  fetchPendingInvitations,
  fetchUserActivities,
  fetchUserPayments,
} from '../api';

/** Every admin query starts with this key, so an action refreshes them all at once. */
export const ADMIN_QUERY_KEY = ['admin'] as const;

export const useAdminOverview = () =>
  useQuery({ queryKey: [...ADMIN_QUERY_KEY, 'overview'], queryFn: ({ signal }) => fetchAdminOverview(signal) });

export const useAdminUsers = (query: AdminUsersQuery) =>
  useQuery({
    queryKey: [...ADMIN_QUERY_KEY, 'users', query],
    queryFn: ({ signal }) => fetchAdminUsers(query, signal),
    placeholderData: keepPreviousData,
  });

export const useUserActivities = (userId: string, query: ActivitiesQuery) =>
  useQuery({
    queryKey: [...ADMIN_QUERY_KEY, 'activities', userId, query],
    queryFn: ({ signal }) => fetchUserActivities(userId, query, signal),
    placeholderData: keepPreviousData,
  });

export const useUserPayments = (userId: string) =>
  useQuery({
    queryKey: [...ADMIN_QUERY_KEY, 'payments', userId],
    queryFn: ({ signal }) => fetchUserPayments(userId, signal),
  });

/** The session's confirmed window; refreshed with every admin query (an action opens or extends it). */
export const useConfirmation = () =>
  useQuery({ queryKey: [...ADMIN_QUERY_KEY, 'confirmation'], queryFn: ({ signal }) => fetchConfirmation(signal) });

export const usePendingInvitations = () =>
  useQuery({
    queryKey: [...ADMIN_QUERY_KEY, 'invitations'],
    queryFn: ({ signal }) => fetchPendingInvitations(signal),
  });

/** The outbox: refreshed now and then, so a message being sent shows when it went (or failed). */
export const useAdminMail = () =>
  useQuery({
    queryKey: [...ADMIN_QUERY_KEY, 'mail'],
    queryFn: ({ signal }) => fetchAdminMail(signal),
    refetchInterval: 15_000,
  });

export const useBillingStatus = () =>
  useQuery({ queryKey: [...ADMIN_QUERY_KEY, 'billing'], queryFn: ({ signal }) => fetchBillingStatus(signal) });

/** True when the server refused because the admin has not turned two-factor on. */
export const needsMfa = (error: unknown): boolean => isApiError(error) && error.code === 'MFA_REQUIRED';

/**
 * One message's text, asked for only once its row is opened (the server records each reading in
 * its person's log), and kept: the text of a stored message does not change. Its key is outside
 * ADMIN_QUERY_KEY, so an action's refresh of the console does not read (and log) it again.
 */
export const useAdminMailText = (id: string) =>
  useQuery({
    queryKey: ['admin-mail-text', id],
    queryFn: ({ signal }) => fetchAdminMailText(id, signal),
    staleTime: Number.POSITIVE_INFINITY,
  });
