// The admin overview's daily figures, counted per UTC day since a date: sign-ups, Voices trained
// (training spends not refunded, so a failed training does not count) and waking time used.
import { and, eq, gte, inArray, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { ledgerEntries, users } from '../db/schema.js';

/** Per `YYYY-MM-DD`: the figure of that day. */
export type DailyCounts = Map<string, number>;

const day = (column: typeof users.createdAt | typeof ledgerEntries.createdAt) =>
  sql<string>`to_char(${column} at time zone 'UTC', 'YYYY-MM-DD')`;

export class AdminStatsRepository {
  constructor(private readonly db: Database) {}

  async signUps(since: Date): Promise<DailyCounts> {
    const d = day(users.createdAt);
    const rows = await this.db
      .select({ d, n: sql<string>`count(*)` })
      .from(users)
      .where(gte(users.createdAt, since))
      .groupBy(d);
    return toMap(rows);
  }

  async voicesTrained(since: Date): Promise<DailyCounts> {
    const d = day(ledgerEntries.createdAt);
    const rows = await this.db
      .select({ d, n: sql<string>`count(*)` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.resource, 'modelsTrained'),
          eq(ledgerEntries.reason, 'usage'),
          gte(ledgerEntries.createdAt, since),
          sql`not exists (select 1 from ledger_entries refund where refund.refund_of = ${ledgerEntries.id})`,
        ),
      )
      .groupBy(d);
    return toMap(rows);
  }

  /** Minutes of waking time used per day, net of refunds. */
  async wakingMinutes(since: Date): Promise<DailyCounts> {
    const d = day(ledgerEntries.createdAt);
    const rows = await this.db
      .select({ d, n: sql<string>`-sum(${ledgerEntries.amount})` })
      .from(ledgerEntries)
      .where(
        and(
          eq(ledgerEntries.resource, 'activationHours'),
          inArray(ledgerEntries.reason, ['usage', 'refund']),
          gte(ledgerEntries.createdAt, since),
        ),
      )
      .groupBy(d);
    return toMap(rows);
  }
}

const toMap = (rows: { d: string; n: string | number }[]): DailyCounts =>
  new Map(rows.map((r) => [r.d, Math.max(0, Number(r.n))]));
