// The activity log's only writer and reader. Each security event of an account (sign-up, logins,
// a lock, two-factor on and off, deletion), each billing event and each admin action is one row,
// written in the transaction of its effect where there is one, so the log and the data agree.
import {
  ACTIVITY_ACTIONS,
  type Activity,
  type ActivityAction,
  type ActivityKind,
  type Pagination,
  paginationOf,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { newId } from '../ids.js';
import type { ActivitiesRepository, ActivityWithActor } from '../repositories/activities.repository.js';

export interface ActivityEntry {
  /** Whose account this is about. */
  userId: string;
  /** Who acted: the user, an admin, or null for the system or the payment provider. */
  actorId: string | null;
  action: ActivityAction;
  details: string;
  before?: Record<string, unknown> | undefined;
  after?: Record<string, unknown> | undefined;
}

export class ActivityService {
  constructor(
    private readonly activities: ActivitiesRepository,
    private readonly clock: Clock,
  ) {}

  async record(entry: ActivityEntry, db?: Database): Promise<void> {
    const now = this.clock.now();
    await this.activities.append(
      {
        id: newId(now),
        userId: entry.userId,
        actorId: entry.actorId,
        kind: ACTIVITY_ACTIONS[entry.action].kind,
        action: entry.action,
        details: entry.details,
        before: entry.before ?? null,
        after: entry.after ?? null,
        createdAt: now,
      },
      db,
    );
  }

  async page(
    userId: string,
    query: { page: number; limit: number; kind?: ActivityKind | undefined },
  ): Promise<{ activities: Activity[]; pagination: Pagination }> {
    const { rows, total } = await this.activities.page(userId, {
      kinds: query.kind ? [query.kind] : undefined,
      offset: (query.page - 1) * query.limit,
      limit: query.limit,
    });
    return {
      activities: rows.map(toActivityView),
      pagination: paginationOf(query.page, query.limit, total),
    };
  }

  /** The account page's list: the user's latest security events. */
  async recentSecurity(userId: string, limit: number): Promise<Activity[]> {
    const { rows } = await this.activities.page(userId, { kinds: ['security'], offset: 0, limit });
    return rows.filter((r) => r.userId === userId).map(toActivityView);
  }

  /** On account deletion: the account's rows go, then the deletion itself is recorded. */
  async eraseFor(userId: string, deletion: ActivityEntry, db?: Database): Promise<void> {
    await this.activities.deleteForUser(userId, db);
    await this.record(deletion, db);
  }
}

function toActivityView(row: ActivityWithActor): Activity {
  return {
    id: row.id,
    _id: row.id,
    kind: row.kind,
    action: row.action as ActivityAction,
    details: row.details,
    actor: row.actorId ? { id: row.actorId, username: row.actorUsername } : null,
    userId: row.userId,
    before: row.before ?? null,
    after: row.after ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}
