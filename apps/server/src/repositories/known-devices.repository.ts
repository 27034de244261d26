// Browsers each account has signed in from (db/schema.ts knownDevices).
import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { knownDevices, users } from '../db/schema.js';

/** Browsers each account has signed in from, by the SHA-256 of their device cookie. */
export class KnownDevicesRepository {
  constructor(private readonly db: Database) {}

  async has(userId: string, tokenHash: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: knownDevices.userId })
      .from(knownDevices)
      .where(and(eq(knownDevices.userId, userId), eq(knownDevices.tokenHash, tokenHash)))
      .limit(1);
    return row !== undefined;
  }

  /** Whether the account has signed in (or up) from any browser with a device cookie. */
  async any(userId: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: knownDevices.userId })
      .from(knownDevices)
      .where(eq(knownDevices.userId, userId))
      .limit(1);
    return row !== undefined;
  }

  async hasForEmail(email: string, tokenHash: string): Promise<boolean> {
    const [row] = await this.db
      .select({ userId: knownDevices.userId })
      .from(knownDevices)
      .innerJoin(users, eq(users.id, knownDevices.userId))
      .where(and(eq(users.email, email), eq(knownDevices.tokenHash, tokenHash)))
      .limit(1);
    return row !== undefined;
  }

  /** Remembers (or marks used) a device, keeping the `keep` used most recently. */
  async remember(userId: string, tokenHash: string, now: Date, keep: number): Promise<void> {
    await this.db
      .insert(knownDevices)
      .values({ userId, tokenHash, createdAt: now, lastUsedAt: now })
      .onConflictDoUpdate({ target: [knownDevices.userId, knownDevices.tokenHash], set: { lastUsedAt: now } });
    await this.db.execute(sql`
      delete from ${knownDevices} where ${knownDevices.userId} = ${userId} and ${knownDevices.tokenHash} not in (
        select ${knownDevices.tokenHash} from ${knownDevices} where ${knownDevices.userId} = ${userId}
        order by ${knownDevices.lastUsedAt} desc limit ${keep})`);
  }
}
