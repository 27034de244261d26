// Issues, checks and revokes sessions. A token is valid while its row exists and it has been
// used within the inactivity limit of its user's role (24 h users, 1 h admins), measured from
// last use; deleting the row revokes it at once.
import { INACTIVITY_LIMIT_MS } from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { ApiKeyRow, UserRow } from '../db/schema.js';
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { RequestSession, SessionsRepository } from '../repositories/sessions.repository.js';
import type { UserUsage, UserViewRow } from '../repositories/user-usage.js';
import { hashToken, newSessionToken } from './tokens.js';

/** Last-use writes are coalesced to one a minute: enough resolution for hour-long limits. */
export const TOUCH_INTERVAL_MS = 60_000;

/** Who asks for work that is charged: the user, and the API key their tool used, if any. */
export interface Caller {
  user: UserRow;
  /** The API key that made the request (services/api-keys.service.ts); null for a session. */
  apiKey: Pick<ApiKeyRow, 'id' | 'wakesVoices'> | null;
}

export interface AuthContext extends Caller {
  /** The session of a signed-in browser; null when an API key made the request. */
  session: RequestSession | null;
  apiKey: ApiKeyRow | null;
}

/** A request made by a signed-in browser: what account, password, two-factor and admin steps need. */
export interface SessionContext {
  user: UserRow;
  session: RequestSession;
}

/** The signed-in user as their own view needs them (`requireSelf`): no secrets, with their usage. */
export interface SelfContext {
  user: UserViewRow;
  session: RequestSession;
  usage: UserUsage;
}

export interface SessionMeta {
  ip?: string | undefined;
  userAgent?: string | undefined;
  /** The browser's device cookie (plugins/device-cookie.ts), for sign-in and sign-up. */
  device?: string | undefined;
}

export class SessionsService {
  constructor(
    private readonly sessions: SessionsRepository,
    private readonly clock: Clock,
  ) {}

  async create(userId: string, meta: SessionMeta): Promise<string> {
    const token = newSessionToken();
    const now = this.clock.now();
    await this.sessions.insert({
      id: newId(now),
      userId,
      tokenHash: hashToken(token),
      createdAt: now,
      lastUsedAt: now,
      ip: meta.ip ?? null,
      userAgent: meta.userAgent?.slice(0, 300) ?? null,
    });
    return token;
  }

  /** Resolves a bearer token to its user, or throws 401. */
  async authenticate(token: string): Promise<AuthContext> {
    return { ...(await this.valid(await this.sessions.findWithUserByTokenHash(hashToken(token)))), apiKey: null };
  }

  /** As authenticate, reading what the user's own view shows, usage included, in the same round trip. */
  async authenticateSelf(token: string): Promise<SelfContext> {
    return this.valid(await this.sessions.findWithUserViewByTokenHash(hashToken(token)));
  }

  /** The found session if it is still valid (marking it used, at most once a minute); throws 401 otherwise. */
  private async valid<T extends { session: RequestSession; user: Pick<UserRow, 'role'> }>(
    found: T | undefined,
  ): Promise<T> {
    if (!found) throw errors.unauthenticated('Your session is no longer valid. Please log in again.');
    const now = this.clock.now();
    const idleMs = now.getTime() - found.session.lastUsedAt.getTime();
    if (idleMs > INACTIVITY_LIMIT_MS[found.user.role]) {
      await this.sessions.delete(found.session.id);
      throw errors.sessionExpired();
    }
    if (idleMs >= TOUCH_INTERVAL_MS) {
      await this.sessions.touch(found.session.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS + 1));
    }
    return found;
  }

  revoke(sessionId: string): Promise<void> {
    return this.sessions.delete(sessionId);
  }

  /** Used on account deletion and role changes: every device must sign in again. */
  revokeAllForUser(userId: string): Promise<void> {
    return this.sessions.deleteAllForUser(userId);
  }

  /** Until `until` (or, with null, no longer) the session's admin actions need no fresh code. */
  setConfirmedUntil(sessionId: string, until: Date | null): Promise<void> {
    return this.sessions.setConfirmedUntil(sessionId, until);
  }

  /** Ends every session of the user but `keep` (two-factor turned on there: the others were made without it). */
  revokeOthers(userId: string, keep: string): Promise<void> {
    return this.sessions.deleteAllForUser(userId, keep);
  }
}
