// GET /api/health's facts: the database answers, which one it is, the version, the uptime and
// billing's state. Checks asked while one is under way share its round trip (decision 18): each
// answer still comes from a `select 1` that ended after its request arrived, and a burst of
// probes costs the database one query at a time.
import type { BillingHealth, HealthResponse } from '@ownvoice/shared';
import { sql } from 'drizzle-orm';
import type { DatabaseHandle } from '../db/client.js';
import { AppError } from '../errors.js';

export class HealthService {
  private readonly startedAt = Date.now();
  private inFlight: Promise<unknown> | undefined;

  constructor(
    private readonly database: DatabaseHandle,
    private readonly version: string,
    private readonly billingHealth: () => Promise<BillingHealth>,
  ) {}

  /** The service's health; 503 when the database does not answer. */
  async check(): Promise<HealthResponse> {
    this.inFlight ??= this.database.db.execute(sql`select 1`).finally(() => {
      this.inFlight = undefined;
    });
    try {
      await this.inFlight;
    } catch {
      throw new AppError(503, 'INTERNAL_ERROR', 'The database is not answering.');
    }
    return {
      status: 'ok',
      version: this.version,
      database: this.database.kind,
      uptimeSeconds: Math.round((Date.now() - this.startedAt) / 1000),
      billing: await this.billingHealth(),
    };
  }
}
