// What the admin console reads: the overview counts and the user list.
// Who may call it is decided by policies/ (adminPolicy) before a handler runs.
import { ADMIN_ACTIVE_DAYS, type AdminOverview, type AdminUsersResponse, type Role } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { UsersService } from './users.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export class AdminService {
  constructor(
    private readonly users: UsersRepository,
    private readonly usersService: Pick<UsersService, 'view'>,
    private readonly clock: Clock,
  ) {}

  async overview(): Promise<AdminOverview> {
    const since = new Date(this.clock.now().getTime() - ADMIN_ACTIVE_DAYS * DAY_MS);
    const o = await this.users.overview(since);
    return {
      users: {
        total: o.total,
        admins: o.admins,
        regular: o.total - o.admins,
        active: o.active,
        mfaEnabled: o.mfaEnabled,
      },
      credits: { total: o.credits },
    };
  }

  async listUsers(query: {
    page: number;
    limit: number;
    search?: string | undefined;
    role?: Role | undefined;
  }): Promise<AdminUsersResponse['data']> {
    const { rows, total } = await this.users.list({
      search: query.search?.trim() || undefined,
      role: query.role,
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    return {
      users: await Promise.all(rows.map((row) => this.usersService.view(row))),
      pagination: { page: query.page, pages: Math.max(1, Math.ceil(total / query.limit)), total, limit: query.limit },
    };
  }
}
