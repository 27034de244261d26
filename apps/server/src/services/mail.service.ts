// Sending e-mail without ever making a request wait for a mail server: `queue` stores the rendered
// message and queues its delivery (a pg-boss job), and the mail worker delivers it through the
// transport, retried with backoff; a message whose attempts ran out is marked failed, where the
// admin console shows it, never lost silently.
import { randomUUID } from 'node:crypto';
import { NOTICES } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { MailMessageRow } from '../db/schema.js';
import { MAIL_MAX_ATTEMPTS } from '../jobs/job-queue.js';
import type { RenderedMail } from '../mail/layout.js';
import { MAIL_MESSAGES, MAIL_NOTICE, type MailData, type MailKind } from '../mail/messages.js';
import type { MailTransport } from '../mail/transport.js';
import type { MailRepository } from '../repositories/mail.repository.js';

/** Who a message goes to; `mutedNotices` are the notices they switched off (a user's row has them). */
export interface Recipient {
  email: string;
  userId: string | null;
  mutedNotices?: readonly string[];
}

const REQUIRED_NOTICES: ReadonlySet<string> = new Set(NOTICES.filter((n) => n.required).map((n) => n.key));

export interface MailQueue {
  /** `jobId` defaults to the message's id; a retry of a failed message needs a new one. */
  enqueueMail(mailId: string, jobId?: string): Promise<void>;
}

export class MailService {
  constructor(
    private readonly repo: MailRepository,
    private readonly mailQueue: () => Promise<MailQueue>,
    private readonly transport: MailTransport,
    private readonly clock: Clock,
    private readonly log: { warn(msg: string): void; error(obj: unknown, msg?: string): void },
    /** The site's address, without a trailing slash: every link in a message starts with it. */
    private readonly siteUrl: string,
  ) {}

  /** A link into the site for a message: `link('/voices/abc')`. */
  link(pathAndQuery: string): string {
    return `${this.siteUrl}${pathAndQuery}`;
  }

  /**
   * Renders `kind` with `data` and queues it for `to`, unless it is a notice they switched off.
   * A required notice (shared NOTICES) is sent whatever the list says. Answers the message's id,
   * or null when it was not sent.
   */
  async send<K extends MailKind>(to: Recipient, kind: K, data: MailData<K>): Promise<string | null> {
    const notice = MAIL_NOTICE[kind];
    if (notice && !REQUIRED_NOTICES.has(notice) && to.mutedNotices?.includes(notice)) return null;
    const render = MAIL_MESSAGES[kind] as (d: MailData<K>) => RenderedMail;
    return this.queue({ email: to.email, userId: to.userId }, kind, render(data));
  }

  /** Where messages go, in words (the admin console says so). */
  get destination(): string {
    return this.transport.description;
  }

  /** True without SMTP_URL: messages are files in the data folder, never leaving the machine. */
  get outbox(): boolean {
    return this.transport.outbox;
  }

  /** Where the outbox writes message `id`, on this machine; null with a mail server. */
  outboxFile(id: string): string | null {
    return this.transport.fileOf(id);
  }

  /**
   * Stores the message and queues its delivery; resolves with its id once both are done. A queue
   * that cannot be reached leaves the message stored as queued: `requeueWaiting` picks it up.
   */
  async queue(to: { email: string; userId: string | null }, kind: MailKind, mail: RenderedMail): Promise<string> {
    const id = randomUUID();
    await this.repo.insert({ id, userId: to.userId, to: to.email, kind, ...mail, createdAt: this.clock.now() });
    await this.enqueue(id);
    return id;
  }

  /**
   * Queues the delivery of a stored message. A queue that cannot be reached leaves it stored as
   * queued: `requeueWaiting` picks it up. `retry`: a failed message set back to queued, whose
   * earlier job (its id the message's) is spent, so it gets a job of its own.
   */
  async enqueue(id: string, { retry = false }: { retry?: boolean } = {}): Promise<void> {
    try {
      const queue = await this.mailQueue();
      await (retry ? queue.enqueueMail(id, randomUUID()) : queue.enqueueMail(id));
    } catch (error) {
      this.log.error(error, `mail ${id} is stored but could not be queued; it is sent when the queue is back`);
    }
  }

  /** Queues every stored message still waiting (the worker does this when it starts). */
  async requeueWaiting(): Promise<number> {
    const ids = await this.repo.waitingIds();
    const queue = await this.mailQueue();
    for (const id of ids) await queue.enqueueMail(id);
    return ids.length;
  }

  /** One delivery attempt, the mail worker's job. Throws while attempts remain, so it is retried. */
  async deliver(id: string): Promise<void> {
    const message = await this.repo.find(id);
    if (message?.status !== 'queued') return;
    const attempt = await this.repo.countAttempt(id);
    if (attempt === null) return;
    try {
      await this.transport.send(message);
      await this.repo.markSent(id, this.clock.now());
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const final = attempt >= MAIL_MAX_ATTEMPTS;
      await this.repo.markFailure(id, reason, final);
      this.log.warn(
        `mail ${id} to ${message.to} (${message.kind}) could not be sent, attempt ${attempt} of ${MAIL_MAX_ATTEMPTS}: ${reason}${final ? '; given up' : ''}`,
      );
      if (!final) throw error;
    }
  }

  /** The newest messages, for the admin console. */
  latest(limit = 50): Promise<MailMessageRow[]> {
    return this.repo.latest(limit);
  }

  close(): void {
    this.transport.close();
  }
}
