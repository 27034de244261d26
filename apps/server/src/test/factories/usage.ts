// Usage as the ledger holds it: a tranche with the grant line it came from, a spend out of a
// tranche with its usage line, and storage slots with theirs. Each keeps the ledger's rule (a
// tranche's amount is the sum of its lines; the slot total the sum of its lines), so
// expectLedgerExplainsBalances holds for accounts made here. Amounts are in stored units
// (minutes for waking hours).
import type { LedgerReason, TrancheType } from '@ownvoice/shared';
import { eq, sql } from 'drizzle-orm';
import { type LedgerEntryRow, ledgerEntries, type UsageTrancheRow, usageTranches, users } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { DAY_MS, inserted, type RowTarget } from './rows.js';

type GrantReason = Extract<LedgerReason, 'plan' | 'plan_upgrade' | 'pack' | 'trial' | 'admin' | 'starter' | 'refund'>;

export interface TrancheSpec {
  type?: TrancheType;
  /** In stored units. */
  amount?: number;
  /** Days from now until it expires (negative: expired already); or `expiresAt`. */
  days?: number;
  expiresAt?: Date;
  reason?: GrantReason;
  /** What caused the grant (an invoice, a checkout); the same reason and reference grant once. */
  reference?: string | null;
}

/** A tranche of `type` (proofreads unless told), granted now with its ledger line. */
export async function createTranche(
  target: RowTarget,
  userId: string,
  { type = 'chunkEdits', amount = 10, days = 90, expiresAt, reason = 'admin', reference = null }: TrancheSpec = {},
): Promise<UsageTrancheRow> {
  const now = target.clock.now();
  return target.database.db.transaction(async (tx) => {
    const tranche = inserted(
      await tx
        .insert(usageTranches)
        .values({
          id: newId(now),
          userId,
          type,
          amount,
          expiresAt: expiresAt ?? new Date(now.getTime() + days * DAY_MS),
          source: reason,
          createdAt: now,
        })
        .returning(),
      'usage_tranches',
    );
    await tx.insert(ledgerEntries).values({
      id: newId(now),
      userId,
      resource: type,
      amount,
      reason,
      trancheId: tranche.id,
      reference,
      createdAt: now,
    });
    return tranche;
  });
}

/** `amount` spent out of `tranche` at `at` (now unless told), with its usage line. */
export async function createSpend(
  target: RowTarget,
  tranche: Pick<UsageTrancheRow, 'id' | 'userId' | 'type'>,
  amount: number,
  { at }: { at?: Date } = {},
): Promise<LedgerEntryRow> {
  const when = at ?? target.clock.now();
  return target.database.db.transaction(async (tx) => {
    await tx
      .update(usageTranches)
      .set({ amount: sql`${usageTranches.amount} - ${amount}` })
      .where(eq(usageTranches.id, tranche.id));
    return inserted(
      await tx
        .insert(ledgerEntries)
        .values({
          id: newId(when),
          userId: tranche.userId,
          resource: tranche.type,
          amount: -amount,
          reason: 'usage',
          trancheId: tranche.id,
          createdAt: when,
        })
        .returning(),
      'ledger_entries',
    );
  });
}

/** Storage slots moved by `delta`, with their ledger line; the account's total follows its lines. */
export async function createStorageSlots(
  target: RowTarget,
  userId: string,
  delta: number,
  { reason = 'admin', reference = null }: { reason?: GrantReason; reference?: string | null } = {},
): Promise<void> {
  const now = target.clock.now();
  await target.database.db.transaction(async (tx) => {
    await tx.insert(ledgerEntries).values({
      id: newId(now),
      userId,
      resource: 'storageSlots',
      amount: delta,
      reason,
      reference,
      createdAt: now,
    });
    await tx
      .update(users)
      .set({ modelStorageSlotsTotal: sql`${users.modelStorageSlotsTotal} + ${delta}` })
      .where(eq(users.id, userId));
  });
}
