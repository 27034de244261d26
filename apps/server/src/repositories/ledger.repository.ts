// The usage ledger (db/schema.ts ledgerEntries): lines are only ever added. A grant's line has a
// reference, and the unique index on it makes a second grant of the same thing a no-op.
import type { LedgerResource, TrancheType } from '@ownvoice/shared';
import { and, desc, eq, gt, inArray, like, or, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { apiKeys, type LedgerEntryRow, ledgerEntries, usageTranches } from '../db/schema.js';

export type LedgerLine = typeof ledgerEntries.$inferInsert;

/**
 * Reversal lines name the payment they take back for, and the payment's state that caused them
 * (`reversal:<payment>:<state>`), so the same refund takes back once however often it is read.
 */
export const reversalPrefix = (paymentReference: string) => `reversal:${paymentReference}:`;

/** A spend line with how much of it has been refunded already. */
export interface RefundableSpend {
  id: string;
  trancheId: string;
  spent: number;
  refunded: number;
}

export class LedgerRepository {
  constructor(private readonly db: Database) {}

  async append(lines: LedgerLine[], db: Database = this.db): Promise<void> {
    if (lines.length) await db.insert(ledgerEntries).values(lines);
  }

  /** Whether a grant with this reason and reference was made (the unique index also refuses a second). */
  async hasGrant(tx: Database, userId: string, reason: LedgerLine['reason'], reference: string): Promise<boolean> {
    const [row] = await tx
      .select({ id: ledgerEntries.id })
      .from(ledgerEntries)
      .where(
        and(eq(ledgerEntries.userId, userId), eq(ledgerEntries.reason, reason), eq(ledgerEntries.reference, reference)),
      )
      .limit(1);
    return row !== undefined;
  }

  /** Sum of a user's lines for a resource, optionally of some reasons only. */
  async sum(
    userId: string,
    resource: LedgerResource,
    reasons?: LedgerLine['reason'][],
    db: Database = this.db,
  ): Promise<number> {
    const [row] = await db
      .select({ total: sql<string | null>`sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.userId, userId),
          eq(ledgerEntries.resource, resource),
          ...(reasons ? [inArray(ledgerEntries.reason, reasons)] : []),
        ),
      );
    return Number(row?.total ?? 0);
  }

  /** The sum of each tranche's lines, for checking the stored amounts against the ledger. */
  async sumsByTranche(userId: string): Promise<Map<string, number>> {
    const rows = await this.db
      .select({ trancheId: ledgerEntries.trancheId, total: sql<string>`sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .where(eq(ledgerEntries.userId, userId))
      .groupBy(ledgerEntries.trancheId);
    return new Map(rows.flatMap((r) => (r.trancheId ? [[r.trancheId, Number(r.total)] as const] : [])));
  }

  /** The newest lines, each with the name of the API key that spent it (null for the pages). */
  async latest(userId: string, limit: number): Promise<(LedgerEntryRow & { apiKeyName: string | null })[]> {
    const rows = await this.db
      .select({ line: ledgerEntries, apiKeyName: apiKeys.name })
      .from(ledgerEntries)
      .leftJoin(apiKeys, eq(apiKeys.id, ledgerEntries.apiKeyId))
      .where(eq(ledgerEntries.userId, userId))
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      .limit(limit);
    return rows.map(({ line, apiKeyName }) => ({ ...line, apiKeyName }));
  }

  /**
   * Spend lines of one resource not yet fully refunded, newest first, locked for the caller's
   * transaction: those named in `ids` when given, else those made since `since`.
   */
  async lockRefundable(
    tx: Database,
    userId: string,
    type: TrancheType,
    { ids, since }: { ids?: readonly string[] | undefined; since: Date },
  ): Promise<RefundableSpend[]> {
    const spends = await tx
      .select({ id: ledgerEntries.id, trancheId: ledgerEntries.trancheId, amount: ledgerEntries.amount })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.userId, userId),
          eq(ledgerEntries.resource, type),
          eq(ledgerEntries.reason, 'usage'),
          ids ? inArray(ledgerEntries.id, [...ids]) : gt(ledgerEntries.createdAt, since),
        ),
      )
      .orderBy(desc(ledgerEntries.createdAt), desc(ledgerEntries.id))
      .for('update');
    if (!spends.length) return [];
    const refunds = await tx
      .select({ refundOf: ledgerEntries.refundOf, total: sql<string>`sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .where(
        inArray(
          ledgerEntries.refundOf,
          spends.map((s) => s.id),
        ),
      )
      .groupBy(ledgerEntries.refundOf);
    const refunded = new Map(refunds.map((r) => [r.refundOf, Number(r.total)]));
    return spends
      .map((s) => ({ id: s.id, trancheId: s.trancheId ?? '', spent: -s.amount, refunded: refunded.get(s.id) ?? 0 }))
      .filter((s) => s.trancheId && s.refunded < s.spent);
  }

  /**
   * What a grant made with this reference gave, per tranche (stored units) and in storage slots,
   * and how much of each reversals took back since, for taking back a refunded payment's part.
   */
  async grantedBy(
    tx: Database,
    userId: string,
    reference: string,
  ): Promise<{ key: string; trancheId: string | null; resource: LedgerResource; granted: number; reversed: number }[]> {
    const rows = await tx
      .select({
        trancheId: ledgerEntries.trancheId,
        resource: ledgerEntries.resource,
        reason: ledgerEntries.reason,
        amount: ledgerEntries.amount,
      })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.userId, userId),
          or(eq(ledgerEntries.reference, reference), like(ledgerEntries.reference, `${reversalPrefix(reference)}%`)),
        ),
      );
    const byKey = new Map<
      string,
      { key: string; trancheId: string | null; resource: LedgerResource; granted: number; reversed: number }
    >();
    for (const row of rows) {
      const key = row.trancheId ?? row.resource;
      const entry = byKey.get(key) ?? {
        key,
        trancheId: row.trancheId,
        resource: row.resource,
        granted: 0,
        reversed: 0,
      };
      if (row.reason === 'reversal') entry.reversed -= row.amount;
      else entry.granted += row.amount;
      byKey.set(key, entry);
    }
    return [...byKey.values()];
  }

  /** When each of these tranches expires. */
  async trancheExpiries(ids: string[]): Promise<Map<string, Date>> {
    if (!ids.length) return new Map();
    const rows = await this.db
      .select({ id: usageTranches.id, expiresAt: usageTranches.expiresAt })
      .from(usageTranches)
      .where(inArray(usageTranches.id, [...new Set(ids)]));
    return new Map(rows.map((r) => [r.id, r.expiresAt]));
  }
}
