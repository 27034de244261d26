// Two-factor state: the user's secrets and last accepted step, and the backup codes.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { mfaBackupCodes, users } from '../db/schema.js';

/** The columns of an account without two-factor. */
const TWO_FACTOR_OFF = { mfaEnabled: false, mfaSecret: null, mfaPendingSecret: null, mfaLastStep: null } as const;

export class MfaRepository {
  constructor(
    private readonly db: Database,
    /** The time rows are stamped with: the services' clock, so tests that move it stay consistent. */
    private readonly clock: Clock,
  ) {}

  async setPending(userId: string, sealedSecret: string): Promise<void> {
    await this.db
      .update(users)
      .set({ mfaPendingSecret: sealedSecret, updatedAt: this.clock.now() })
      .where(eq(users.id, userId));
  }

  /**
   * Turns two-factor on with its secret and backup codes, in one transaction; false (nothing
   * changed) when it was on already, so of two requests at once only one turns it on.
   */
  async enable(
    userId: string,
    sealedSecret: string,
    step: number,
    codeHashes: string[],
    ids: string[],
  ): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const turnedOn = await tx
        .update(users)
        .set({
          mfaEnabled: true,
          mfaSecret: sealedSecret,
          mfaPendingSecret: null,
          mfaLastStep: step,
          updatedAt: this.clock.now(),
        })
        .where(and(eq(users.id, userId), eq(users.mfaEnabled, false)))
        .returning({ id: users.id });
      if (turnedOn.length === 0) return false;
      await tx.delete(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId));
      await tx
        .insert(mfaBackupCodes)
        .values(codeHashes.map((codeHash, i) => ({ id: ids[i] as string, userId, codeHash })));
      return true;
    });
  }

  /** Turns two-factor off; false (nothing changed) when it was off already. */
  async disable(userId: string): Promise<boolean> {
    return this.db.transaction(async (tx) => {
      const turnedOff = await tx
        .update(users)
        .set({ ...TWO_FACTOR_OFF, updatedAt: this.clock.now() })
        .where(and(eq(users.id, userId), eq(users.mfaEnabled, true)))
        .returning({ id: users.id });
      if (turnedOff.length === 0) return false;
      await tx.delete(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId));
      return true;
    });
  }

  /** Two-factor off, a pending setup and the backup codes gone, in the caller's transaction. */
  async clear(userId: string, tx: Database): Promise<void> {
    await tx
      .update(users)
      .set({ ...TWO_FACTOR_OFF, updatedAt: this.clock.now() })
      .where(eq(users.id, userId));
    await tx.delete(mfaBackupCodes).where(eq(mfaBackupCodes.userId, userId));
  }

  /** Records `step` as used if it is newer than the last one; false when it was used already. */
  async claimStep(userId: string, step: number): Promise<boolean> {
    const rows = await this.db
      .update(users)
      .set({ mfaLastStep: step })
      .where(and(eq(users.id, userId), or(isNull(users.mfaLastStep), lt(users.mfaLastStep, step))))
      .returning({ id: users.id });
    return rows.length > 0;
  }

  /** Uses a backup code once; false when there is no such unused code. */
  async useBackupCode(userId: string, codeHash: string, now: Date): Promise<boolean> {
    const rows = await this.db
      .update(mfaBackupCodes)
      .set({ usedAt: now })
      .where(
        and(eq(mfaBackupCodes.userId, userId), eq(mfaBackupCodes.codeHash, codeHash), isNull(mfaBackupCodes.usedAt)),
      )
      .returning({ id: mfaBackupCodes.id });
    return rows.length > 0;
  }
}
