// The console's e-mail card: where messages go, in words, the failed count, and each message as a
// table row (its text, keys masked, only on a server without a mail server).
import { type AdminMailMessage, type AdminMailResponse, MASKED_KEY, type MailStatus } from '@ownvoice/shared';
import { formatCount, formatDateTime } from '../../lib/format';

type MailView = AdminMailResponse['data'];

const STATUS: Record<MailStatus, { label: string; color: string }> = {
  queued: { label: 'Queued', color: 'blue' },
  sent: { label: 'Sent', color: 'teal' },
  failed: { label: 'Failed', color: 'red' },
};

/** What an outbox server says: mail never leaves the machine, so the console shows it. */
export const OUTBOX_DESTINATION =
  "No mail server is set (SMTP_URL): messages are kept in the data folder's outbox, shown here with their links' keys hidden.";

/** Where mail goes, in one sentence. */
export function destinationLine(view: Pick<MailView, 'outbox' | 'destination'>): string {
  return view.outbox ? OUTBOX_DESTINATION : `Messages are sent through ${view.destination}.`;
}

/** The failed count as its badge says it: red while any failed. */
export function failedBadge(failed: number): { label: string; color: string } {
  return { label: `${formatCount(failed)} failed`, color: failed > 0 ? 'red' : 'gray' };
}

export interface MailRow {
  id: string;
  to: string;
  subject: string;
  status: { label: string; color: string };
  attempts: string;
  /** When it was queued; and when it went, once sent. */
  time: string;
  error: string;
  /** Only a message whose attempts ran out can be sent again. */
  canRetry: boolean;
  /** Its text can be opened (an outbox server). */
  readable: boolean;
}

export function mailRow(message: AdminMailMessage): MailRow {
  return {
    id: message.id,
    to: message.to,
    subject: message.subject,
    status: STATUS[message.status],
    attempts: formatCount(message.attempts),
    time: sentLater(message)
      ? `${formatDateTime(message.createdAt)} (sent ${formatDateTime(message.sentAt ?? '')})`
      : formatDateTime(message.createdAt),
    error: message.lastError ?? '—',
    canRetry: message.status === 'failed',
    readable: message.readable,
  };
}

/** Sent in a later minute than it was queued (a retry, a slow server): worth its own time. */
function sentLater(message: AdminMailMessage): boolean {
  return message.sentAt !== null && formatDateTime(message.sentAt) !== formatDateTime(message.createdAt);
}

/** Under a shown message whose links had keys: why they are hidden, and where the whole message is. */
export const maskedNote = (file: string): string =>
  `The key in each link is hidden (${MASKED_KEY}): any admin can read this, and a link would open the account. Whoever runs the server finds the whole message in ${file}.`;

/** Under every shown message: reading it is not private. */
export const READ_RECORDED = 'Opening a message is recorded in the activity log of the person it was sent to.';
