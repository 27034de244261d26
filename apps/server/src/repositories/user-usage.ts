// What a user's own view reads (services/user-view.ts): their columns, and their usage as two columns of a
// query over the users table so that it costs no round trip of its own: their live tranches,
// aggregated into one JSON value, and the number of their Voices (each takes a storage slot).
// Used for the user alone (usage.repository.ts) and with the session of a request
// (sessions.repository.ts).
import { getTableName, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { type UsageTrancheRow, type UserRow, usageTranches, users, voices } from '../db/schema.js';

export type TrancheAmount = Pick<UsageTrancheRow, 'type' | 'amount' | 'expiresAt'>;

export interface UserUsage {
  /** Tranches that still hold something and have not expired. */
  tranches: TrancheAmount[];
  storageSlotsUsed: number;
}

type LiveTranche = [type: TrancheAmount['type'], amount: number, expiresAt: string];

/**
 * A column named with its table. Drizzle leaves names bare in a query over one table, where
 * inside these subqueries "id" would be the subquery's own.
 */
const qualified = (column: AnyPgColumn) =>
  sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
const tranche = {
  type: qualified(usageTranches.type),
  amount: qualified(usageTranches.amount),
  expiresAt: qualified(usageTranches.expiresAt),
  userId: qualified(usageTranches.userId),
};
const userId = qualified(users.id);

/** Select these beside the user's columns, with the placeholder `now` set to the view's time (ISO 8601). */
export const usageColumns = {
  liveTranches: sql<LiveTranche[]>`(
    select coalesce(json_agg(json_build_array(${tranche.type}, ${tranche.amount}, ${tranche.expiresAt})), '[]'::json)
    from ${usageTranches}
    where ${tranche.userId} = ${userId} and ${tranche.amount} > 0 and ${tranche.expiresAt} > ${sql.placeholder('now')}
  )`,
  voices: sql<number>`(select count(*) from ${voices} where ${qualified(voices.userId)} = ${userId})`.mapWith(Number),
};

export function usageOf(row: { liveTranches: LiveTranche[]; voices: number }): UserUsage {
  return {
    tranches: row.liveTranches.map(([type, amount, expiresAt]) => ({ type, amount, expiresAt: new Date(expiresAt) })),
    storageSlotsUsed: row.voices,
  };
}

/**
 * The user's columns their own view shows (services/user-view.ts): what the session lookup of
 * `GET /api/auth/me` reads, so that the page load every client makes parses and carries no
 * secrets (password hash, two-factor secrets) and none of the bookkeeping it never shows.
 */
export const userViewColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  mfaEnabled: users.mfaEnabled,
  emailVerifiedAt: users.emailVerifiedAt,
  pendingEmail: users.pendingEmail,
  mutedNotices: users.mutedNotices,
  planName: users.planName,
  billingCycle: users.billingCycle,
  payNowDiscount: users.payNowDiscount,
  trialStartedAt: users.trialStartedAt,
  trialRefusedAt: users.trialRefusedAt,
  subscriptionStatus: users.subscriptionStatus,
  cancelAtPeriodEnd: users.cancelAtPeriodEnd,
  providerSubscriptionId: users.providerSubscriptionId,
  currentPeriodEnd: users.currentPeriodEnd,
  pendingPlan: users.pendingPlan,
  pendingBillingCycle: users.pendingBillingCycle,
  pendingEffectiveAt: users.pendingEffectiveAt,
  pendingForSubscriptionId: users.pendingForSubscriptionId,
  paymentDue: users.paymentDue,
  grantedPlan: users.grantedPlan,
  onboardingStep: users.onboardingStep,
  modelStorageSlotsTotal: users.modelStorageSlotsTotal,
  credits: users.credits,
  createdAt: users.createdAt,
} as const;

export type UserViewRow = Pick<UserRow, keyof typeof userViewColumns>;

/**
 * The view's columns as one JSON object, each value then read as its column reads it: what the
 * session lookup of `GET /api/auth/me` selects. node-postgres describes a prepared query's result
 * on every execution and picks a parser for each of its columns, and drizzle maps each column of
 * each row; one JSON column in place of 27 spares both on the path every page load takes. Both
 * drivers hand the object over parsed.
 */
export const userViewObject = sql<UserViewRow>`json_build_object(${sql.join(
  Object.entries(userViewColumns).map(([key, column]) => sql`${sql.raw(`'${key}'`)}, ${qualified(column)}`),
  sql`, `,
)})`.mapWith(
  (object: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(userViewColumns).map(([key, column]) => {
        const value = object[key];
        return [key, value === null ? null : column.mapFromDriverValue(value)];
      }),
    ) as UserViewRow,
);
