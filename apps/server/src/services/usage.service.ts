// Usage limits: resources come in tranches that expire; using one takes from the tranche that
// expires soonest, inside a transaction with the tranches locked, so two requests can never
// spend the same unit. Running out is the insufficient-resource error (`INSUFFICIENT_LIMIT`, with
// the resource in its details, which opens the web app's purchase prompt). Each spend records the
// tranches it took from, so a refund returns the units there, with their own expiry.
import type { TrancheType } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { StarterAllowance } from '../config.js';
import type { Database } from '../db/client.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { UsageRepository } from '../repositories/usage.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** How long a spend's record is kept for a refund to its tranche; later refunds get a fresh tranche. */
const SPEND_RECORD_DAYS = 30;

/** What one consume took: hand it to refund() to give back exactly that. */
export interface UsageReceipt {
  spendIds: readonly string[];
}

/**
 * Stored units per unit shown: waking hours are kept in minutes so awake time is charged by
 * the minute; everything else is counted as is. The API shows amounts in shown units.
 */
export const STORED_UNITS: Record<TrancheType, number> = {
  activationHours: 60,
  modelsTrained: 1,
  chunkEdits: 1,
  shortContent: 1,
};

export class UsageService {
  constructor(
    private readonly db: Database,
    private readonly usage: UsageRepository,
    private readonly clock: Clock,
  ) {}

  /** The expiring part of what a new account gets until billing sells plans (its storage slots are set on the user row). */
  async grantStarter(userId: string, allowance: StarterAllowance, db: Database = this.db): Promise<void> {
    const now = this.clock.now();
    const expiresAt = new Date(now.getTime() + allowance.days * DAY_MS);
    const amounts: [TrancheType, number][] = [
      ['modelsTrained', allowance.modelsTrained],
      ['activationHours', allowance.activationHours],
      ['chunkEdits', allowance.chunkEdits],
      ['shortContent', allowance.shortContent],
    ];
    await this.usage.insert(
      amounts
        .filter(([, amount]) => amount > 0)
        .map(([type, amount]) => ({
          id: newId(now),
          userId,
          type,
          amount: amount * STORED_UNITS[type],
          expiresAt,
          source: 'starter',
        })),
      db,
    );
  }

  /** What is left of a resource, in stored units (minutes for waking hours). */
  async remaining(userId: string, type: TrancheType): Promise<number> {
    return this.usage.sumLive(userId, type, this.clock.now());
  }

  /**
   * Spends `amount` (in stored units: minutes for waking hours) of a resource; throws the
   * insufficient-resource error when there is not enough.
   */
  async consume(userId: string, type: TrancheType, amount: number, tx?: Database): Promise<UsageReceipt> {
    const run = async (db: Database): Promise<UsageReceipt> => {
      const now = this.clock.now();
      const live = await this.usage.lockLive(db, userId, type, now);
      if (live.reduce((sum, t) => sum + t.amount, 0) < amount) throw errors.insufficientLimit(type);
      const spends: {
        id: string;
        userId: string;
        trancheId: string;
        type: TrancheType;
        amount: number;
        createdAt: Date;
      }[] = [];
      let left = amount;
      for (const tranche of live) {
        if (left === 0) break;
        const take = Math.min(left, tranche.amount);
        await this.usage.take(db, tranche.id, take);
        spends.push({ id: newId(now), userId, trancheId: tranche.id, type, amount: take, createdAt: now });
        left -= take;
      }
      await this.usage.pruneSpends(db, userId, new Date(now.getTime() - SPEND_RECORD_DAYS * DAY_MS));
      await this.usage.recordSpends(db, spends);
      return { spendIds: spends.map((s) => s.id) };
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  /**
   * Gives back what was spent (in stored units) on work that failed through no fault of the user:
   * to the tranches the spend took from (the receipt's, else this type's latest spends), with
   * their expiry. Only what no record covers any more comes back as a fresh tranche.
   */
  async refund(userId: string, type: TrancheType, amount: number, receipt?: UsageReceipt): Promise<void> {
    await this.db.transaction(async (tx) => {
      let left = amount;
      for (const spend of await this.usage.lockRefundable(tx, userId, type, receipt?.spendIds)) {
        if (left === 0) break;
        const give = Math.min(left, spend.amount - spend.refunded);
        await this.usage.giveBack(tx, spend, give);
        left -= give;
      }
      if (left > 0) {
        const now = this.clock.now();
        await this.usage.insert(
          [
            {
              id: newId(now),
              userId,
              type,
              amount: left,
              expiresAt: new Date(now.getTime() + 90 * DAY_MS),
              source: 'refund',
            },
          ],
          tx,
        );
      }
    });
  }
}
