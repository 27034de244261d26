// The admin console's view of e-mail (decision 23): where messages go, how many were given up on,
// the newest ones, one message's text (only on a server without SMTP_URL, where messages never
// leave the machine), and sending a failed one again. A shown text has every key in its links
// masked, and showing it is logged for its person (decision 34): any admin can open it, and a
// reset or invitation link is a key to an account; the operator has the outbox's files.
import type { AdminMailMessage, AdminMailResponse, AdminMailText } from '@ownvoice/shared';
import type { Database } from '../db/client.js';
import type { MailMessageRow, UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { maskLinkKeys } from '../mail/mask-keys.js';
import type { MailRepository } from '../repositories/mail.repository.js';
import type { ActivityService } from './activity.service.js';
import type { MailService } from './mail.service.js';

/** How many of the newest messages the console lists. */
export const ADMIN_MAIL_LIST_SIZE = 50;

export class AdminMailService {
  constructor(
    private readonly db: Database,
    private readonly repo: MailRepository,
    private readonly mail: Pick<MailService, 'destination' | 'outbox' | 'outboxFile' | 'enqueue'>,
    private readonly activity: Pick<ActivityService, 'record'>,
  ) {}

  async view(): Promise<AdminMailResponse['data']> {
    const outbox = this.mail.outbox;
    const failed = await this.repo.countFailed();
    const rows = await this.repo.latest(ADMIN_MAIL_LIST_SIZE);
    return { destination: this.mail.destination, outbox, failed, messages: rows.map((row) => this.toView(row)) };
  }

  /** One message's text with its links' keys masked; the view is recorded in the log. */
  async text(actor: Pick<UserRow, 'id'>, id: string): Promise<AdminMailText> {
    const file = this.mail.outboxFile(id);
    if (!file) throw errors.forbidden('With a mail server, messages are not shown here: their links stay in the mail.');
    const row = await this.repo.find(id);
    if (!row) throw errors.notFound('Message');
    const { text, masked } = maskLinkKeys(row.text);
    await this.activity.record({
      // The person it is for sees it in their log; an invitation to a new address has no one.
      userId: row.userId ?? actor.id,
      actorId: actor.id,
      action: 'mail_viewed',
      details: `Read "${row.subject}" to ${row.to} in the admin console${masked ? ', its link’s key hidden' : ''}`,
    });
    return { text, masked, file };
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
      // Opened one at a time (text), where the operator has the files anyway.
      readable: this.mail.outbox,
    };
  }
}
