// The admin console's view of e-mail (decision 23): where messages go, how many were given up on,
// the newest ones (their text only on a server without SMTP_URL, where messages never leave the
// machine and the operator passes a link on by hand), and sending a failed one again.
import type { AdminMailMessage, AdminMailResponse } from '@ownvoice/shared';
import type { Database } from '../db/client.js';
import type { MailMessageRow, UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import type { MailRepository } from '../repositories/mail.repository.js';
import type { ActivityService } from './activity.service.js';
import type { MailService } from './mail.service.js';

/** How many of the newest messages the console lists. */
export const ADMIN_MAIL_LIST_SIZE = 50;

export class AdminMailService {
  constructor(
    private readonly db: Database,
    private readonly repo: MailRepository,
    private readonly mail: Pick<MailService, 'destination' | 'outbox' | 'enqueue'>,
    private readonly activity: Pick<ActivityService, 'record'>,
  ) {}

  async view(): Promise<AdminMailResponse['data']> {
    const outbox = this.mail.outbox;
    const failed = await this.repo.countFailed();
    const rows = await this.repo.latest(ADMIN_MAIL_LIST_SIZE);
    return { destination: this.mail.destination, outbox, failed, messages: rows.map((row) => this.toView(row)) };
  }

  /** A failed message back to the queue, its attempts afresh; recorded in the activity log. */
  async retry(actor: Pick<UserRow, 'id'>, id: string): Promise<AdminMailMessage> {
    const before = await this.repo.find(id);
    if (!before) throw errors.notFound('Message');
    if (before.status !== 'failed') {
      throw errors.validation(
        before.status === 'sent'
          ? 'This message was sent already: only a message that failed can be sent again.'
          : 'This message is still queued: it is being sent. Only a message that failed can be sent again.',
      );
    }
    const requeued = await this.db.transaction(async (tx) => {
      const row = await this.repo.retry(id, tx);
      if (row) {
        await this.activity.record(
          {
            // The person it is for sees it in their log; an invitation to a new address has no one.
            userId: before.userId ?? actor.id,
            actorId: actor.id,
            action: 'mail_retried',
            details: `"${before.subject}" to ${before.to} queued again after ${before.attempts} failed attempts (${before.lastError ?? 'no error recorded'})`,
          },
          tx,
        );
      }
      return row;
    });
    // Another admin sent it again a moment ago.
    if (!requeued) throw errors.validation('This message is queued again already.');
    await this.mail.enqueue(id, { retry: true });
    return this.toView(requeued);
  }

  private toView(row: MailMessageRow): AdminMailMessage {
    return {
      id: row.id,
      to: row.to,
      kind: row.kind,
      subject: row.subject,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
      // Links in messages are keys to accounts: shown only where the operator has the files anyway.
      text: this.mail.outbox ? row.text : null,
    };
  }
}
