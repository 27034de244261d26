// What an address received once the service's mail queue has delivered everything queued for it:
// for tests that check a message was sent once, and nothing more.
import { eq } from 'drizzle-orm';
import type { ParsedMail } from 'mailparser';
import { expect } from 'vitest';
import type { Database } from '../db/client.js';
import { mailMessages } from '../db/schema.js';
import { recipientOf, type TestMailServer } from './mail-server.js';

export async function deliveredTo(smtp: TestMailServer, db: Database, email: string): Promise<ParsedMail[]> {
  const rows = () => db.select().from(mailMessages).where(eq(mailMessages.to, email));
  await expect
    .poll(async () => (await rows()).filter((row) => row.status === 'queued').length, { timeout: 30_000 })
    .toBe(0);
  const sent = (await rows()).filter((row) => row.status === 'sent').length;
  await expect.poll(() => smtp.received.filter((m) => recipientOf(m) === email).length, { timeout: 10_000 }).toBe(sent);
  return smtp.received.filter((m) => recipientOf(m) === email);
}
