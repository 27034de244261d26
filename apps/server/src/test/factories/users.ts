// Accounts inserted directly, as sign-up leaves them (address confirmed unless told otherwise),
// in a plan or trial state when a test needs one; and the rows that name an account, counted.
import type { BillingCycle, PaidPlanName } from '@ownvoice/shared';
import { getTableColumns, getTableName, type SQL, sql } from 'drizzle-orm';
import { type PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.js';
import * as schema from '../../db/schema.js';
import { type UserRow, users } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { inserted, type RowTarget } from './rows.js';

let serial = 0;

/**
 * An account with a unique name and address, confirmed and signed up now. Its password hash
 * matches no password: a test that signs in registers through the API instead.
 */
export async function createUser(target: RowTarget, overrides: Partial<UserRow> = {}): Promise<UserRow> {
  const now = target.clock.now();
  serial += 1;
  const username = `person${serial}${Math.random().toString(36).slice(2, 6)}`;
  return inserted(
    await target.database.db
      .insert(users)
      .values({
        id: newId(now),
        username,
        email: `${username}@example.com`,
        passwordHash: 'not-a-password-hash',
        emailVerifiedAt: now,
        createdAt: now,
        updatedAt: now,
        ...overrides,
      })
      .returning(),
    'users',
  );
}

/** The columns of an account on the pay-later trial since `startedAt` (no card, no grant: add those). */
export const onTrial = (startedAt: Date): Partial<UserRow> => ({
  planName: 'trial',
  trialStartedAt: startedAt,
  onboardingStep: 'trial_ready',
});

/**
 * The columns of an account on a paid plan until `periodEnd`, as its subscription's sync leaves
 * them, without a subscription at any provider (a test that pays one goes through the provider).
 */
export const onPlan = (plan: PaidPlanName, billingCycle: BillingCycle, periodEnd: Date): Partial<UserRow> => ({
  planName: plan,
  billingCycle,
  subscriptionStatus: 'active',
  currentPeriodEnd: periodEnd,
  grantedPlan: plan,
  grantedBillingCycle: billingCycle,
  onboardingStep: 'plan_active',
});

// Every table with a user_id column, found from the schema itself: a table added later is
// counted without anyone remembering to list it here.
const ownedTables: { table: PgTable; userId: PgColumn }[] = (Object.values(schema) as unknown[]).flatMap((value) => {
  if (!(value instanceof PgTable)) return [];
  const columns: Record<string, PgColumn> = getTableColumns(value);
  const userId = columns.userId;
  return userId ? [{ table: value, userId }] : [];
});

/** Per table name, how many rows name `userId` (the users table by its id). */
export async function rowsOfUser(
  target: { database: { db: Database } },
  userId: string,
): Promise<Record<string, number>> {
  const { db } = target.database;
  const counts: Record<string, number> = {};
  const tables: [PgTable, SQL][] = [
    [schema.users, sql`${schema.users.id} = ${userId}`],
    ...ownedTables.map(({ table, userId: column }): [PgTable, SQL] => [table, sql`${column} = ${userId}`]),
  ];
  for (const [table, where] of tables) {
    const [row] = await db
      .select({ n: sql<number>`count(*)`.mapWith(Number) })
      .from(table)
      .where(where);
    counts[getTableName(table)] = row?.n ?? 0;
  }
  return counts;
}
