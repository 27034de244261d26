// Webhook endpoints and their deliveries (db/schema.ts `webhookEndpoints`, `webhookDeliveries`).
import { and, arrayContains, count, desc, eq } from 'drizzle-orm';
import type { Database } from '../db/client.js';
import { type WebhookDeliveryRow, type WebhookEndpointRow, webhookDeliveries, webhookEndpoints } from '../db/schema.js';

/** Deliveries an endpoint's log shows: the latest. */
const DELIVERIES_SHOWN = 50;

export class WebhooksRepository {
  constructor(private readonly db: Database) {}

  async insertEndpoint(row: WebhookEndpointRow, tx: Database = this.db): Promise<WebhookEndpointRow> {
    const [created] = await tx.insert(webhookEndpoints).values(row).returning();
    if (!created) throw new Error('insert into webhook_endpoints returned no row');
    return created;
  }

  async countEndpoints(userId: string, tx: Database = this.db): Promise<number> {
    const [row] = await tx.select({ n: count() }).from(webhookEndpoints).where(eq(webhookEndpoints.userId, userId));
    return row?.n ?? 0;
  }

  listEndpoints(userId: string): Promise<WebhookEndpointRow[]> {
    return this.db
      .select()
      .from(webhookEndpoints)
      .where(eq(webhookEndpoints.userId, userId))
      .orderBy(webhookEndpoints.createdAt);
  }

  /** The user's endpoints that asked for `type`. */
  listSubscribed(userId: string, type: WebhookEndpointRow['events'][number]): Promise<WebhookEndpointRow[]> {
    return this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.userId, userId), arrayContains(webhookEndpoints.events, [type])));
  }

  async findEndpoint(userId: string, id: string): Promise<WebhookEndpointRow | undefined> {
    const [row] = await this.db
      .select()
      .from(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)));
    return row;
  }

  async deleteEndpoint(userId: string, id: string): Promise<boolean> {
    const rows = await this.db
      .delete(webhookEndpoints)
      .where(and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.userId, userId)))
      .returning({ id: webhookEndpoints.id });
    return rows.length > 0;
  }

  async insertDelivery(row: typeof webhookDeliveries.$inferInsert): Promise<WebhookDeliveryRow> {
    const [created] = await this.db.insert(webhookDeliveries).values(row).returning();
    if (!created) throw new Error('insert into webhook_deliveries returned no row');
    return created;
  }

  /** A delivery with its endpoint; undefined once either is gone. */
  async findDelivery(id: string): Promise<{ delivery: WebhookDeliveryRow; endpoint: WebhookEndpointRow } | undefined> {
    const [row] = await this.db
      .select({ delivery: webhookDeliveries, endpoint: webhookEndpoints })
      .from(webhookDeliveries)
      .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
      .where(eq(webhookDeliveries.id, id));
    return row;
  }

  async updateDelivery(id: string, patch: Partial<Omit<WebhookDeliveryRow, 'id'>>): Promise<WebhookDeliveryRow> {
    const [row] = await this.db.update(webhookDeliveries).set(patch).where(eq(webhookDeliveries.id, id)).returning();
    if (!row) throw new Error(`webhook delivery ${id} is gone`);
    return row;
  }

  listDeliveries(endpointId: string): Promise<WebhookDeliveryRow[]> {
    return this.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId))
      .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
      .limit(DELIVERIES_SHOWN);
  }
}
