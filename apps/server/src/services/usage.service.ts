// Usage limits: resources come in tranches that expire; using one takes from the tranche that
// expires soonest, inside a transaction with the tranches locked, so two requests can never
// spend the same unit. Running out is the spec's insufficient-resource error.
import type { TrancheType } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { StarterAllowance } from '../config.js';
import type { Database } from '../db/client.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { UsageRepository } from '../repositories/usage.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;

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
  async consume(userId: string, type: TrancheType, amount: number, tx?: Database): Promise<void> {
    const run = async (db: Database) => {
      const live = await this.usage.lockLive(db, userId, type, this.clock.now());
      if (live.reduce((sum, t) => sum + t.amount, 0) < amount) throw errors.insufficientLimit(type);
      let left = amount;
      for (const tranche of live) {
        if (left === 0) break;
        const take = Math.min(left, tranche.amount);
        await this.usage.take(db, tranche.id, take);
        left -= take;
      }
    };
    if (tx) await run(tx);
    else await this.db.transaction(run);
  }

  /** Gives back what was spent (in stored units) on work that failed through no fault of the user. */
  async refund(userId: string, type: TrancheType, amount: number, days = 90): Promise<void> {
    const now = this.clock.now();
    await this.usage.insert([
      { id: newId(now), userId, type, amount, expiresAt: new Date(now.getTime() + days * DAY_MS), source: 'refund' },
    ]);
  }
}
