// Usage limits: resources come in tranches that expire; using one takes from the tranche that
// expires soonest, inside a transaction with the tranches locked, so two requests can never
// spend the same unit. Running out is the insufficient-resource error (`INSUFFICIENT_LIMIT`, with
// the resource in its details, which opens the web app's purchase prompt). Every grant, spend and
// refund is a line in the ledger written in the same transaction, so a tranche's amount is always
// the sum of its lines; a spend's lines name their tranches, so a refund returns the units there,
// with their own expiry. Storage slots are a total, not tranches: the sum of their ledger lines.
import type { LedgerReason, LedgerResource, TrancheGrant, TrancheType } from '@ownvoice/shared';
import { eq, sql } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { StarterAllowance } from '../config.js';
import type { Database } from '../db/client.js';
import { users } from '../db/schema.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import { type LedgerLine, type LedgerRepository, reversalPrefix } from '../repositories/ledger.repository.js';
import type { UsageRepository } from '../repositories/usage.repository.js';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A spend is refunded to its own tranche for this long; later refunds get a fresh tranche. */
const REFUND_TO_TRANCHE_DAYS = 30;
/** A refund no spend line covers any more lasts this long. */
const FRESH_REFUND_DAYS = 90;

/** What one consume took: hand it to refund() to give back exactly that. */
export interface UsageReceipt {
  spendIds: readonly string[];
}

/** Why a grant was made and what caused it; the same reason and reference grant once. */
export interface GrantCause {
  reason: Extract<LedgerReason, 'plan' | 'plan_upgrade' | 'pack' | 'trial' | 'admin' | 'starter'>;
  /** The invoice, checkout session or other cause; null for grants that may repeat (admin). */
  reference: string | null;
  /** The admin who made an `admin` grant. */
  authorId?: string | undefined;
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
    private readonly ledger: LedgerRepository,
    private readonly clock: Clock,
  ) {}

  /**
   * Grants tranches (amounts in shown units) and storage slots, with their ledger lines, in the
   * caller's transaction. Answers false, granting nothing, when this cause was granted before.
   */
  async grant(
    tx: Database,
    userId: string,
    grant: { tranches: readonly TrancheGrant[]; storageSlots?: number },
    cause: GrantCause,
  ): Promise<boolean> {
    if (cause.reference && (await this.ledger.hasGrant(tx, userId, cause.reason, cause.reference))) return false;
    const now = this.clock.now();
    const tranches = grant.tranches
      .filter((t) => t.amount > 0)
      .map((t) => ({
        id: newId(now),
        userId,
        type: t.type,
        amount: t.amount * STORED_UNITS[t.type],
        expiresAt: t.expiresAt,
        source: cause.reason,
        createdAt: now,
      }));
    await this.usage.insert(tranches, tx);
    const lines: LedgerLine[] = tranches.map((t) => ({
      id: newId(now),
      userId,
      resource: t.type,
      amount: t.amount,
      reason: cause.reason,
      trancheId: t.id,
      reference: cause.reference,
      authorId: cause.authorId ?? null,
      createdAt: now,
    }));
    await this.ledger.append(lines, tx);
    if (grant.storageSlots) await this.addStorageSlots(tx, userId, grant.storageSlots, cause);
    return true;
  }

  /** Moves the storage-slot total by `delta` (negative to take away), with its ledger line. */
  async addStorageSlots(tx: Database, userId: string, delta: number, cause: GrantCause): Promise<void> {
    if (delta === 0) return;
    const now = this.clock.now();
    await this.ledger.append(
      [
        {
          id: newId(now),
          userId,
          resource: 'storageSlots',
          amount: delta,
          reason: cause.reason,
          reference: cause.reference,
          authorId: cause.authorId ?? null,
          createdAt: now,
        },
      ],
      tx,
    );
    await this.syncStorageTotal(tx, userId);
  }

  /** The account's storage-slot total is the sum of its storage-slot lines. */
  private async syncStorageTotal(tx: Database, userId: string): Promise<void> {
    const total = await this.ledger.sum(userId, 'storageSlots', undefined, tx);
    await tx.update(users).set({ modelStorageSlotsTotal: total }).where(eq(users.id, userId));
  }

  /** Adds to the account's credits, with its ledger line. */
  async addCredits(tx: Database, userId: string, amount: number, cause: GrantCause): Promise<void> {
    if (amount === 0) return;
    const now = this.clock.now();
    await this.ledger.append(
      [
        {
          id: newId(now),
          userId,
          resource: 'credits',
          amount,
          reason: cause.reason,
          reference: cause.reference,
          authorId: cause.authorId ?? null,
          createdAt: now,
        },
      ],
      tx,
    );
    await tx
      .update(users)
      .set({ credits: sql`${users.credits} + ${amount}` })
      .where(eq(users.id, userId));
  }

  /**
   * Takes back `fraction` (0 to 1) of what the grant named `reference` gave, rounded up, less what
   * earlier reversals of it took, out of what each of its tranches still holds (what was spent
   * stays spent) and out of the storage-slot total. `state` names the payment state that asks for
   * it, so asking again for the same state takes nothing more. Answers what was taken back and
   * what could not be because it was spent, in stored units per resource.
   */
  async reverseGrant(
    tx: Database,
    userId: string,
    reference: string,
    fraction: number,
    state: string,
  ): Promise<{
    taken: Partial<Record<LedgerResource, number>>;
    unrecovered: Partial<Record<LedgerResource, number>>;
  }> {
    const now = this.clock.now();
    const lineReference = `${reversalPrefix(reference)}${state}`;
    const taken: Partial<Record<LedgerResource, number>> = {};
    const unrecovered: Partial<Record<LedgerResource, number>> = {};
    for (const grant of await this.ledger.grantedBy(tx, userId, reference)) {
      const owed = Math.ceil(grant.granted * Math.min(1, Math.max(0, fraction))) - grant.reversed;
      if (owed <= 0) continue;
      let take = owed;
      if (grant.trancheId) {
        const held = await this.usage.lockAmount(tx, grant.trancheId);
        take = Math.min(owed, held);
        if (take > 0) await this.usage.take(tx, grant.trancheId, take);
      }
      if (take < owed) unrecovered[grant.resource] = (unrecovered[grant.resource] ?? 0) + owed - take;
      if (take <= 0) continue;
      taken[grant.resource] = (taken[grant.resource] ?? 0) + take;
      await this.ledger.append(
        [
          {
            id: newId(now),
            userId,
            resource: grant.resource,
            amount: -take,
            reason: 'reversal',
            trancheId: grant.trancheId,
            reference: lineReference,
            createdAt: now,
          },
        ],
        tx,
      );
      if (grant.resource === 'storageSlots') await this.syncStorageTotal(tx, userId);
    }
    return { taken, unrecovered };
  }

  /** The storage slots that came with plans (and the trial or starter allowance), not bought or granted. */
  planStorageSlots(tx: Database, userId: string): Promise<number> {
    return this.ledger.sum(userId, 'storageSlots', ['plan', 'plan_upgrade', 'trial', 'starter'], tx);
  }

  /** What a new account gets on a server without payments (OWNVOICE_BILLING=none). */
  async grantStarter(userId: string, allowance: StarterAllowance, db: Database = this.db): Promise<void> {
    const expiresAt = new Date(this.clock.now().getTime() + allowance.days * DAY_MS);
    await this.grant(
      db,
      userId,
      {
        tranches: (['modelsTrained', 'activationHours', 'chunkEdits', 'shortContent'] as const).map((type) => ({
          type,
          amount: allowance[type],
          expiresAt,
        })),
        storageSlots: allowance.storageSlots,
      },
      { reason: 'starter', reference: 'starter' },
    );
  }

  /** What is left of a resource, in stored units (minutes for waking hours). */
  async remaining(userId: string, type: TrancheType, tx?: Database): Promise<number> {
    return this.usage.sumLive(userId, type, this.clock.now(), tx);
  }

  /**
   * Spends `amount` (in stored units: minutes for waking hours) of a resource; throws the
   * insufficient-resource error when there is not enough. `apiKeyId` names the key that asked for
   * the work, so the ledger shows which of a person's tools spent it.
   */
  async consume(
    userId: string,
    type: TrancheType,
    amount: number,
    { tx, apiKeyId = null }: { tx?: Database; apiKeyId?: string | null } = {},
  ): Promise<UsageReceipt> {
    const run = async (db: Database): Promise<UsageReceipt> => {
      const now = this.clock.now();
      const live = await this.usage.lockLive(db, userId, type, now);
      if (live.reduce((sum, t) => sum + t.amount, 0) < amount) throw errors.insufficientLimit(type);
      const lines: LedgerLine[] = [];
      let left = amount;
      for (const tranche of live) {
        if (left === 0) break;
        const take = Math.min(left, tranche.amount);
        await this.usage.take(db, tranche.id, take);
        lines.push({
          id: newId(now),
          userId,
          resource: type,
          amount: -take,
          reason: 'usage',
          trancheId: tranche.id,
          apiKeyId,
          createdAt: now,
        });
        left -= take;
      }
      await this.ledger.append(lines, db);
      return { spendIds: lines.map((line) => line.id) };
    };
    return tx ? run(tx) : this.db.transaction(run);
  }

  /**
   * Gives back what was spent (in stored units) on work that failed through no fault of the user:
   * to the tranches the spend took from (the receipt's, else this type's latest spends), with
   * their expiry. Only what no spend line covers comes back as a fresh tranche.
   */
  async refund(userId: string, type: TrancheType, amount: number, receipt?: UsageReceipt): Promise<void> {
    await this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const since = new Date(now.getTime() - REFUND_TO_TRANCHE_DAYS * DAY_MS);
      const lines: LedgerLine[] = [];
      let left = amount;
      for (const spend of await this.ledger.lockRefundable(tx, userId, type, { ids: receipt?.spendIds, since })) {
        if (left === 0) break;
        const give = Math.min(left, spend.spent - spend.refunded);
        await this.usage.giveBack(tx, spend.trancheId, give);
        lines.push({
          id: newId(now),
          userId,
          resource: type,
          amount: give,
          reason: 'refund',
          trancheId: spend.trancheId,
          refundOf: spend.id,
          createdAt: now,
        });
        left -= give;
      }
      if (left > 0) {
        const trancheId = newId(now);
        await this.usage.insert(
          [
            {
              id: trancheId,
              userId,
              type,
              amount: left,
              expiresAt: new Date(now.getTime() + FRESH_REFUND_DAYS * DAY_MS),
              source: 'refund',
            },
          ],
          tx,
        );
        lines.push({
          id: newId(now),
          userId,
          resource: type,
          amount: left,
          reason: 'refund',
          trancheId,
          createdAt: now,
        });
      }
      await this.ledger.append(lines, tx);
    });
  }
}
