// What the admin console reads: the overview (counts and 30 days of daily figures), the user
// list and a user's activity. Who may call it is decided by policies/ (adminPolicy) first.
import {
  type ActivityKind,
  ADMIN_ACTIVE_DAYS,
  ADMIN_CHART_DAYS,
  type AdminDay,
  type AdminOverview,
  type AdminUsersResponse,
  paginationOf,
  type Role,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import { errors } from '../errors.js';
import type { AdminStatsRepository } from '../repositories/admin-stats.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { ActivityService } from './activity.service.js';
import type { UsersService } from './users.service.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export class AdminService {
  constructor(
    private readonly users: UsersRepository,
    private readonly stats: AdminStatsRepository,
    private readonly usersService: Pick<UsersService, 'view'>,
    private readonly activity: Pick<ActivityService, 'page'>,
    private readonly clock: Clock,
  ) {}

  async overview(): Promise<AdminOverview> {
    const now = this.clock.now();
    const since = new Date(now.getTime() - ADMIN_ACTIVE_DAYS * DAY_MS);
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
      daily: await this.daily(now),
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
      pagination: paginationOf(query.page, query.limit, total),
    };
  }

  /** A user's activity, newest first; 404 when there is no such user. */
  async activities(userId: string, query: { page: number; limit: number; kind?: ActivityKind | undefined }) {
    if (!(await this.users.findById(userId))) throw errors.notFound('User');
    return this.activity.page(userId, query);
  }

  /** ADMIN_CHART_DAYS UTC days ending today, oldest first, with zeros for quiet days. */
  private async daily(now: Date): Promise<AdminDay[]> {
    const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    const first = new Date(today - (ADMIN_CHART_DAYS - 1) * DAY_MS);
    const [signUps, trained, minutes] = await Promise.all([
      this.stats.signUps(first),
      this.stats.voicesTrained(first),
      this.stats.wakingMinutes(first),
    ]);
    return Array.from({ length: ADMIN_CHART_DAYS }, (_, i) => {
      const date = new Date(first.getTime() + i * DAY_MS).toISOString().slice(0, 10);
      return {
        date,
        signUps: signUps.get(date) ?? 0,
        voicesTrained: trained.get(date) ?? 0,
        wakingHours: Math.round((minutes.get(date) ?? 0) / 6) / 10,
      };
    });
  }
}
