// The e-mail notices the service's own events send (decision 23): a Voice trained or failed,
// billing's receipts, renewals, declines, cancellations and refunds, two-factor turned on or off.
// Each is sent once, by the code path that records its effect once, and only after the
// transaction that made the effect has committed: a transaction that rolls back sends nothing
// (collect the sends in an AfterCommit while it runs). Queueing a message never fails what caused
// it: a failure is logged and the action stands. MailService.send skips notices the person muted.
import { type LedgerResource, MIN_TRAINING_CHARS, TRANCHE_TYPES, type TrancheType } from '@ownvoice/shared';
import type { UserRow, VoiceRow } from '../db/schema.js';
import type { MailData, MailKind } from '../mail/messages.js';
import { SITE_PATHS } from '../mail/site-paths.js';
import type { MailService } from './mail.service.js';
import { STORED_UNITS } from './usage.service.js';

/** What a notice needs of the person it goes to; a user's row has it. */
export type NoticeRecipient = Pick<UserRow, 'id' | 'email' | 'username' | 'mutedNotices'>;

/** Work to do once a transaction has committed, collected while it runs; dropped if it never commits. */
export class AfterCommit {
  private readonly tasks: (() => Promise<void>)[] = [];

  add(task: () => Promise<void>): void {
    this.tasks.push(task);
  }

  /** Runs what was collected, in order, once. */
  async run(): Promise<void> {
    for (const task of this.tasks.splice(0)) await task();
  }
}

export class Notices {
  constructor(
    private readonly mail: Pick<MailService, 'send' | 'link'>,
    private readonly users: { findById(id: string): Promise<NoticeRecipient | undefined> },
    private readonly log: { error(obj: unknown, msg?: string): void },
  ) {}

  /** A link into the site (a path of SITE_PATHS). */
  link(path: string): string {
    return this.mail.link(path);
  }

  /** Queues `kind` for `user` unless they muted it; never throws (a failure is logged). */
  async send<K extends MailKind>(user: NoticeRecipient, kind: K, data: MailData<K>): Promise<void> {
    try {
      await this.mail.send({ email: user.email, userId: user.id, mutedNotices: user.mutedNotices }, kind, data);
    } catch (error) {
      this.log.error(error, `could not queue the ${kind} notice to user ${user.id}; what caused it stands`);
    }
  }

  /** A Voice's training finished: it is ready (called once its row says so). */
  async voiceReady(voice: Pick<VoiceRow, 'id' | 'userId' | 'name'>): Promise<void> {
    const user = await this.owner(voice.userId);
    if (!user) return;
    await this.send(user, 'voice_ready', {
      username: user.username,
      voiceName: voice.name,
      link: this.link(SITE_PATHS.voice(voice.id)),
    });
  }

  /** A Voice's training failed with `message` (the error the Voice's row keeps). */
  async voiceFailed(voice: Pick<VoiceRow, 'id' | 'userId' | 'name'>, message: string): Promise<void> {
    const user = await this.owner(voice.userId);
    if (!user) return;
    await this.send(user, 'voice_failed', {
      username: user.username,
      voiceName: voice.name,
      reason: trainingFailureInWords(message),
      link: this.link(SITE_PATHS.voice(voice.id)),
    });
  }

  private async owner(userId: string): Promise<NoticeRecipient | undefined> {
    try {
      return await this.users.findById(userId);
    } catch (error) {
      this.log.error(error, `could not read user ${userId} for a notice`);
      return undefined;
    }
  }
}

/**
 * Why a training failed, as a sentence its owner can act on: the trainer's own words name files
 * and stack frames, which the mail leaves out (the Voice's page keeps them).
 */
export function trainingFailureInWords(message: string): string {
  if (/not enough text/i.test(message)) {
    return `there was not enough of your writing to learn from. A Voice needs at least ${MIN_TRAINING_CHARS.toLocaleString('en-US')} characters of your own prose, in several paragraphs.`;
  }
  if (/interrupted/i.test(message)) {
    return 'the trainer was interrupted too many times (the server restarted or stopped while it trained). That was not your writing: training it again usually works.';
  }
  if (/python|pytorch/i.test(message)) {
    return 'this server cannot train Voices at the moment, because its trainer is not set up. That was not your writing: try again once the operator has fixed it.';
  }
  return 'something went wrong on our side while it trained, not with your writing.';
}

const NOUNS: Record<LedgerResource, readonly [one: string, many: string]> = {
  modelsTrained: ['Voice training', 'Voice trainings'],
  activationHours: ['waking hour', 'waking hours'],
  chunkEdits: ['proofread', 'proofreads'],
  shortContent: ['short content draft', 'short content drafts'],
  storageSlots: ['Voice storage slot', 'Voice storage slots'],
  credits: ['credit', 'credits'],
};

const isTranche = (resource: LedgerResource): resource is TrancheType =>
  (TRANCHE_TYPES as readonly string[]).includes(resource);

/** "1 Voice training", "10 waking hours", "90 minutes of waking time": an amount as stored (minutes for hours). */
function storedAmountInWords(resource: LedgerResource, stored: number): string {
  if (resource === 'activationHours' && stored % STORED_UNITS.activationHours !== 0) {
    return `${stored} minute${stored === 1 ? '' : 's'} of waking time`;
  }
  const shown = isTranche(resource) ? stored / STORED_UNITS[resource] : stored;
  const [one, many] = NOUNS[resource];
  return `${shown} ${shown === 1 ? one : many}`;
}

/** "a, b and c". */
export function listInWords(items: readonly string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Amounts as the ledger stores them, in words: "1 Voice training and 10 waking hours"; '' for none. */
export function storedAmountsInWords(amounts: Partial<Record<LedgerResource, number>>): string {
  const parts = Object.entries(amounts)
    .filter(([, amount]) => (amount ?? 0) > 0)
    .map(([resource, amount]) => storedAmountInWords(resource as LedgerResource, amount ?? 0));
  return listInWords(parts);
}

/** Amounts in shown units (hours for waking hours), in words. */
export function shownAmountsInWords(amounts: Partial<Record<LedgerResource, number>>): string {
  const stored = Object.fromEntries(
    Object.entries(amounts).map(([resource, amount]) => {
      const r = resource as LedgerResource;
      return [r, (amount ?? 0) * (isTranche(r) ? STORED_UNITS[r] : 1)];
    }),
  );
  return storedAmountsInWords(stored);
}
