// At most EMAIL_LINKS_PER_HOUR links an hour to one address, whichever account asks for them: the
// per-account cap (EmailAddressService) is no cap on an address that sign-up and delete cycles, or
// many accounts asking to move there, can each mail afresh (decision 33). Counted by the address's
// SHA-256, which outlives the accounts that asked.
import { EMAIL_LINKS_PER_HOUR, normalizeEmail } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import { AppError, formatDuration } from '../errors.js';
import { newId } from '../ids.js';
import type { MailedLinksRepository } from '../repositories/mailed-links.repository.js';
import { hashToken } from './tokens.js';

const HOUR_MS = 60 * 60 * 1000;

/** 429: EMAIL_LINKS_PER_HOUR links went to `to` in the hour since `oldest`; says when to ask again. */
export function tooManyLinks(to: string, oldest: Date, now: Date): AppError {
  const retryAfterSeconds = Math.max(1, Math.ceil((oldest.getTime() + HOUR_MS - now.getTime()) / 1000));
  return new AppError(
    429,
    'RATE_LIMITED',
    `We sent ${EMAIL_LINKS_PER_HOUR} links to ${to} in the last hour. Look for them (and in the spam folder), or ask again in ${formatDuration(retryAfterSeconds)}.`,
    { retryAfterSeconds },
  );
}

const addressHash = (email: string) => hashToken(normalizeEmail(email));

export class AddressLinkLimit {
  constructor(
    private readonly mailed: MailedLinksRepository,
    private readonly clock: Clock,
  ) {}

  /** Throws 429 while EMAIL_LINKS_PER_HOUR links went to `email` in the last hour. */
  async assertLeft(email: string, db?: Database): Promise<void> {
    const now = this.clock.now();
    const { n, oldest } = await this.mailed.since(addressHash(email), new Date(now.getTime() - HOUR_MS), db);
    if (n >= EMAIL_LINKS_PER_HOUR) throw tooManyLinks(email, oldest ?? now, now);
  }

  /** Counts a link mailed to `email`; counts older than the hour go. */
  async count(email: string, db?: Database): Promise<void> {
    const now = this.clock.now();
    await this.mailed.purge(new Date(now.getTime() - HOUR_MS), db);
    await this.mailed.insert({ id: newId(now), addressHash: addressHash(email), sentAt: now }, db);
  }
}
