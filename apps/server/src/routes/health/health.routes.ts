import { apiErrorBodySchema, type BillingHealth, healthResponseSchema } from '@ownvoice/shared';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DatabaseHandle } from '../../db/client.js';
import { AppError } from '../../errors.js';

const startedAt = Date.now();

export async function healthRoutes(
  app: FastifyInstance,
  database: DatabaseHandle,
  version: string,
  billingHealth: () => Promise<BillingHealth>,
): Promise<void> {
  // Checks asked while one is under way share its round trip (decision 18): each answer still
  // comes from a `select 1` that ended after its request arrived, and a burst of probes costs the
  // database one query at a time.
  let inFlight: Promise<unknown> | undefined;
  const ping = () =>
    (inFlight ??= database.db.execute(sql`select 1`).finally(() => {
      inFlight = undefined;
    }));
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/health', { schema: { response: { 200: healthResponseSchema, 503: apiErrorBodySchema } } }, async () => {
      try {
        await ping();
      } catch {
        throw new AppError(503, 'INTERNAL_ERROR', 'The database is not answering.');
      }
      return {
        status: 'ok' as const,
        version,
        database: database.kind,
        uptimeSeconds: Math.round((Date.now() - startedAt) / 1000),
        billing: await billingHealth(),
      };
    });
}
