// Usage tranches: amounts of a resource granted to a user, each with its own expiry.
import { eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type UsageTrancheRow, usageTranches } from '../db/schema.js';

export class UsageRepository {
  constructor(private readonly db: Database) {}

  async listForUser(userId: string): Promise<UsageTrancheRow[]> {
    return this.db.select().from(usageTranches).where(eq(usageTranches.userId, userId));
  }
}
