// Wrong passwords and codes lock out where they come from, never the account's owner.
//
// A sign-in attempt is against a subject (the e-mail address typed, whether or not an account has
// it, so the answers never tell a real address from a made-up one) from a source: a browser the
// account has signed in from before (its device cookie, known-devices.repository.ts) or else the
// client's address. Five wrong tries in a row from an unknown source lock that source out of that
// subject for two hours; other sources go on. Fifty from unknown sources together (a guess spread
// over many addresses) lock every unknown source out of it for two hours, while the owner's known
// browsers still get in. A known browser is never locked: past five wrong tries it waits, 30
// seconds doubling to 15 minutes between tries.
//
// A signed-in session that must give its password or a code again (deleting the account, turning
// two-factor off, an admin action) is its own source: five wrong tries in a row end that session,
// so a stolen session cannot guess for ever, and the owner's other sessions are untouched.
//
// A request with an API key that is unknown, revoked or without the route's scope is a wrong try
// from its client's address, against every key together: API_KEY_FAILURES within a day shut that
// client out of keys for API_KEY_LOCK_MS (decision 33). A key is 256 random bits, so no count makes
// guessing one feasible; the count stops a client that hammers, and is looser than sign-in's so a
// misconfigured tool does not shut a whole office out of its keys for hours. A right key does not
// start the count again, or one's own key would make guessing others free; and no count is shared
// by every client, which a few could fill to shut everyone out.
import { createHash } from 'node:crypto';
import { ACCOUNT_LOCK_MS, MAX_FAILED_LOGINS, normalizeEmail } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { AuthFailureRow, UserRow } from '../db/schema.js';
import { type AppError, errors } from '../errors.js';
import type { AuthFailuresRepository } from '../repositories/auth-failures.repository.js';
import type { KnownDevicesRepository } from '../repositories/known-devices.repository.js';
import type { ActivityService } from './activity.service.js';
import type { SessionMeta, SessionsService } from './sessions.service.js';
import { hashToken } from './tokens.js';

/** Wrong tries from all unknown sources together that lock them all out of one subject. */
export const MAX_FAILED_LOGINS_UNKNOWN_SOURCES = 50;
/** A known browser's first wait, after MAX_FAILED_LOGINS wrong tries; it doubles with each more. */
export const KNOWN_DEVICE_FIRST_WAIT_MS = 30_000;
export const KNOWN_DEVICE_MAX_WAIT_MS = 15 * 60_000;
/** Browsers remembered per account. */
const KNOWN_DEVICES_KEPT = 20;
/** A count with no failure for this long starts again; rows older than this are forgotten. */
const FORGET_AFTER_MS = 24 * 60 * 60_000;
const PURGE_EVERY_MS = 10 * 60_000;
const ALL_UNKNOWN = '*';

/** One try, as counted. */
export interface Attempt {
  subject: string;
  source: string;
  /** A browser the account knows: slowed down, never locked. */
  known: boolean;
  /** The account, when there is one, for its security log. */
  userId: string | undefined;
  /** The session trying, for a signed-in check (it ends after too many). */
  sessionId?: string;
  /** Counted against its source alone, never with every unknown source together. */
  sourceOnly?: boolean;
  /** What a locked-out source is told, when not the account lock's words. */
  lockedError?: (retryAfterSeconds: number) => AppError;
  /** Wrong tries that lock the source, and for how long, when not sign-in's. */
  limits?: { failures: number; lockMs: number };
}

/** Wrong API keys from one client that shut it out of keys, and for how long. */
export const API_KEY_FAILURES = 20;
export const API_KEY_LOCK_MS = 15 * 60_000;

const API_KEY_SUBJECT = 'api-key';

const emailSubject = (email: string) => `email:${createHash('sha256').update(normalizeEmail(email)).digest('hex')}`;

export class LoginGuard {
  private lastPurge = 0;

  constructor(
    private readonly failures: AuthFailuresRepository,
    private readonly devices: KnownDevicesRepository,
    private readonly activity: Pick<ActivityService, 'record'>,
    private readonly sessions: Pick<SessionsService, 'revoke'>,
    private readonly clock: Clock,
  ) {}

  /** A sign-in with `email` (and the account it names, if any) from the client in `meta`. */
  async forLogin(email: string, user: UserRow | undefined, meta: SessionMeta): Promise<Attempt> {
    const known = user !== undefined && meta.device !== undefined && (await this.isKnown(user.id, meta.device));
    return {
      subject: emailSubject(email),
      source: known ? `device:${hashToken(meta.device as string)}` : `ip:${meta.ip ?? 'unknown'}`,
      known,
      userId: user?.id,
    };
  }

  /** A request with an API key from the client at `ip`. */
  forApiKey(ip: string | undefined): Attempt {
    return {
      subject: API_KEY_SUBJECT,
      source: `ip:${ip ?? 'unknown'}`,
      known: false,
      userId: undefined,
      sourceOnly: true,
      lockedError: errors.apiKeysLockedOut,
      limits: { failures: API_KEY_FAILURES, lockMs: API_KEY_LOCK_MS },
    };
  }

  /**
   * A signed-in session giving its password or a code again: `verify` answers the error for a
   * wrong one, which is counted and thrown (five in a row end the session instead).
   */
  async check(
    user: UserRow,
    sessionId: string,
    what: string,
    verify: () => Promise<AppError | undefined>,
  ): Promise<void> {
    const attempt: Attempt = {
      subject: `user:${user.id}`,
      source: `session:${sessionId}`,
      known: false,
      userId: user.id,
      sessionId,
    };
    await this.admit(attempt);
    const wrong = await verify();
    if (wrong) throw await this.fail(attempt, wrong, what);
    await this.succeed(attempt);
  }

  /** Throws while the attempt's source may not try: locked out, or (a known browser) not yet. */
  async admit(attempt: Attempt): Promise<void> {
    const now = this.clock.now();
    const sources = attempt.known ? [attempt.source] : [attempt.source, ALL_UNKNOWN];
    for (const row of await this.failures.find(attempt.subject, sources)) {
      if (row.lockedUntil && row.lockedUntil > now) {
        throw (attempt.lockedError ?? errors.accountLocked)(secondsUntil(row.lockedUntil, now));
      }
      if (attempt.known && row.source === attempt.source) {
        const readyAt = knownDeviceReadyAt(row);
        if (readyAt && readyAt > now) throw errors.rateLimited(secondsUntil(readyAt, now));
      }
    }
  }

  /**
   * Counts a wrong try and answers the error to give: `wrong` itself, or the lock's when this try
   * locked the source out (for a session: ended it).
   */
  async fail(attempt: Attempt, wrong: AppError, what: string): Promise<AppError> {
    const now = this.clock.now();
    const staleBefore = new Date(now.getTime() - FORGET_AFTER_MS);
    await this.purge(now, staleBefore);
    if (attempt.userId) {
      await this.activity.record({
        userId: attempt.userId,
        actorId: attempt.userId,
        action: 'login_failed',
        details: what,
      });
    }
    const row = await this.failures.increment(attempt.subject, attempt.source, now, staleBefore);
    if (attempt.known) return wrong;
    const { failures, lockMs } = attempt.limits ?? { failures: MAX_FAILED_LOGINS, lockMs: ACCOUNT_LOCK_MS };
    const lockedUntil = new Date(now.getTime() + lockMs);
    if (row.failures >= failures) {
      await this.failures.lock(attempt.subject, attempt.source, lockedUntil);
      return this.locked(attempt, lockedUntil, now);
    }
    if (attempt.sessionId || attempt.sourceOnly) return wrong;
    const all = await this.failures.increment(attempt.subject, ALL_UNKNOWN, now, staleBefore);
    if (all.failures >= MAX_FAILED_LOGINS_UNKNOWN_SOURCES) {
      await this.failures.lock(attempt.subject, ALL_UNKNOWN, lockedUntil);
      return this.locked(attempt, lockedUntil, now, 'every browser it has not signed in from before');
    }
    return wrong;
  }

  /** A right password or code: the source's count starts again; a browser that signed in is known from now on. */
  async succeed(attempt: Attempt, signedIn?: { userId: string; device: string | undefined }): Promise<void> {
    await this.failures.clear(attempt.subject, attempt.source);
    if (signedIn) await this.remember(signedIn.userId, signedIn.device);
  }

  /** A browser that signed in (or up) to the account: known from now on. */
  async remember(userId: string, device: string | undefined): Promise<void> {
    if (device) await this.devices.remember(userId, hashToken(device), this.clock.now(), KNOWN_DEVICES_KEPT);
  }

  /** Whether the browser with `device` cookie has signed in to the account before. */
  isKnown(userId: string, device: string): Promise<boolean> {
    return this.devices.has(userId, hashToken(device));
  }

  /** Whether the account has signed in (or up) from some browser before: a new one is then worth a notice. */
  knowsAnyDevice(userId: string): Promise<boolean> {
    return this.devices.any(userId);
  }

  /** Whether the browser with `device` cookie has signed in before to the account with `email` (the rate limit asks). */
  isKnownFor(email: string, device: string): Promise<boolean> {
    return this.devices.hasForEmail(normalizeEmail(email), hashToken(device));
  }

  /** Forgets an account's counts (it is being deleted). */
  async forget(user: UserRow): Promise<void> {
    await this.failures.clear(`user:${user.id}`);
    await this.failures.clear(emailSubject(user.email));
  }

  private async locked(attempt: Attempt, until: Date, now: Date, whom?: string): Promise<AppError> {
    if (attempt.sessionId) {
      await this.sessions.revoke(attempt.sessionId);
      if (attempt.userId) {
        await this.activity.record({
          userId: attempt.userId,
          actorId: null,
          action: 'account_locked',
          details: `A session was signed out after ${MAX_FAILED_LOGINS} wrong passwords or codes in a row`,
        });
      }
      return errors.unauthenticated('Too many wrong passwords or codes: you were signed out. Sign in again to go on.');
    }
    if (attempt.userId) {
      const from = whom ?? attempt.source.replace(/^ip:/, '');
      await this.activity.record({
        userId: attempt.userId,
        actorId: null,
        action: 'account_locked',
        details: `Sign-ins from ${from} were locked for ${ACCOUNT_LOCK_MS / 3_600_000} hours after too many wrong tries; browsers you signed in from before still get in`,
      });
    }
    return (attempt.lockedError ?? errors.accountLocked)(secondsUntil(until, now));
  }

  /** Old counts go now and then, so made-up addresses cannot fill the table. */
  private async purge(now: Date, staleBefore: Date): Promise<void> {
    if (now.getTime() - this.lastPurge < PURGE_EVERY_MS) return;
    this.lastPurge = now.getTime();
    await this.failures.purge(staleBefore, now);
  }
}

/** When a known browser past its free tries may try again. */
function knownDeviceReadyAt(row: AuthFailureRow): Date | undefined {
  const over = row.failures - MAX_FAILED_LOGINS;
  if (over < 0) return undefined;
  const wait = Math.min(KNOWN_DEVICE_FIRST_WAIT_MS * 2 ** over, KNOWN_DEVICE_MAX_WAIT_MS);
  return new Date(row.lastFailedAt.getTime() + wait);
}

const secondsUntil = (at: Date, now: Date) => Math.max(1, Math.ceil((at.getTime() - now.getTime()) / 1000));
