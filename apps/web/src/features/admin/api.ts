// The admin console's reads: the overview counts and a page of users.
import {
  type AdminOverview,
  type AdminUsersQuery,
  type AdminUsersResponse,
  adminOverviewSchema,
  adminUsersResponseSchema,
} from '@ownvoice/shared';
import { api } from '../../lib/api';

export const fetchAdminOverview = (signal?: AbortSignal): Promise<AdminOverview> =>
  api.get('/admin/overview', { schema: adminOverviewSchema, ...(signal ? { signal } : {}) });

export function fetchAdminUsers(query: AdminUsersQuery, signal?: AbortSignal): Promise<AdminUsersResponse> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query))
    if (value !== undefined && value !== '') params.set(key, String(value));
  return api.get(`/admin/users?${params}`, { schema: adminUsersResponseSchema, ...(signal ? { signal } : {}) });
}
