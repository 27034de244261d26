// API keys: created (the secret shown once, only its SHA-256 kept), listed, revoked, and checked
// on each request a key makes. A key acts as its owner: the routes it reaches run the same
// handlers, checks and charges as a session's (plugins/authenticate.ts says which routes).
// A key outlives the session that made it, so making one asks for the password again (and a code
// with two-factor on), needs a confirmed address and is told to that address; wrong keys count
// against the client that sends them, as wrong passwords do (decision 33).
import {
  API_KEY_PREFIX,
  API_KEY_SCOPE_LABELS,
  API_KEY_SHOWN_CHARS,
  API_KEY_WAKE_LABEL,
  API_KEYS_MAX,
  type ApiKey,
  type ApiKeyScope,
  type CreateApiKeyRequest,
  type CreatedApiKey,
  createApiKeyRequestSchema,
} from '@ownvoice/shared';
import type { Clock } from '../clock.js';
import type { Database } from '../db/client.js';
import type { ApiKeyRow, UserRow } from '../db/schema.js';
import { type AppError, errors } from '../errors.js';
import { newId } from '../ids.js';
import { SITE_PATHS } from '../mail/site-paths.js';
import type { ApiKeysRepository } from '../repositories/api-keys.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import type { LoginGuard } from './login-guard.js';
import { listInWords, type Notices } from './notices.js';
import { type SessionContext, TOUCH_INTERVAL_MS } from './sessions.service.js';
import type { StepUpService } from './step-up.service.js';
import { hashToken, newSessionToken } from './tokens.js';

const unknownKey = () =>
  errors.unauthenticated('This API key is not valid. Check it, or create a new one on your account page.');

/** Why `key` may not call a route that takes any of `scopes`, or undefined when it may. */
function whyRefused(key: ApiKeyRow | undefined, scopes: readonly ApiKeyScope[]): AppError | undefined {
  if (!key) return unknownKey();
  if (key.revokedAt) return errors.apiKeyRevoked();
  if (!scopes.some((scope) => key.scopes.includes(scope))) return errors.apiKeyScope(scopes);
  return undefined;
}

export const isApiKeySecret = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

export const apiKeyView = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  shown: `${row.shown}…`,
  scopes: row.scopes,
  rateLimitPerMinute: row.rateLimitPerMinute,
  wakesVoices: row.wakesVoices,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export class ApiKeysService {
  constructor(
    private readonly db: Database,
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersRepository,
    private readonly stepUp: Pick<StepUpService, 'confirmPassword'>,
    private readonly guard: Pick<LoginGuard, 'forApiKey' | 'admit' | 'fail'>,
    /** Tells the owner's address of a new key (a required notice). */
    private readonly notices: Pick<Notices, 'send' | 'link'>,
    private readonly clock: Clock,
  ) {}

  async create(auth: SessionContext, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const { user } = auth;
    const input = createApiKeyRequestSchema.parse(request);
    // An address nobody confirmed may be someone else's: its account holds nothing that outlives
    // the owner taking it back by "Forgot password?".
    if (!user.emailVerifiedAt) throw errors.emailNotVerified(user.email);
    await this.stepUp.confirmPassword(auth, input, 'Wrong password or code to make an API key');
    const secret = `${API_KEY_PREFIX}${newSessionToken()}`;
    const row = await this.db.transaction(async (tx) => {
      // Under the user's row lock: two requests at once cannot both take the last place.
      await this.users.lockById(tx, user.id);
      if ((await this.keys.countActive(user.id, tx)) >= API_KEYS_MAX) throw errors.apiKeysFull(API_KEYS_MAX);
      const now = this.clock.now();
      return this.keys.insert(
        {
          id: newId(now),
          userId: user.id,
          name: input.name,
          secretHash: hashToken(secret),
          shown: secret.slice(0, API_KEY_SHOWN_CHARS),
          scopes: input.scopes,
          rateLimitPerMinute: input.rateLimitPerMinute,
          wakesVoices: input.wakesVoices,
          createdAt: now,
        },
        tx,
      );
    });
    const key = apiKeyView(row);
    await this.notices.send(user, 'api_key_created', {
      username: user.username,
      keyName: key.name,
      shown: key.shown,
      scopes: listInWords([
        ...key.scopes.map((scope) => API_KEY_SCOPE_LABELS[scope]),
        ...(key.wakesVoices ? [API_KEY_WAKE_LABEL] : []),
      ]),
      when: row.createdAt,
      link: this.notices.link(SITE_PATHS.account),
    });
    return { key, secret };
  }

  async list(user: UserRow): Promise<ApiKey[]> {
    return (await this.keys.listActive(user.id)).map(apiKeyView);
  }

  async revoke(user: UserRow, id: string): Promise<void> {
    if (!(await this.keys.revoke(user.id, id, this.clock.now()))) throw errors.notFound('API key');
  }

  /**
   * The owner and key of a secret that holds one of `scopes` (those a route takes), marking the key
   * used; 401 for an unknown or revoked key, 403 for one with none of them, each counted against the client at
   * `ip`, which too many in a row shut out of keys for a while (429).
   */
  async authenticate(
    secret: string,
    scopes: readonly ApiKeyScope[],
    ip: string | undefined,
  ): Promise<{ user: UserRow; key: ApiKeyRow }> {
    const attempt = this.guard.forApiKey(ip);
    await this.guard.admit(attempt);
    const found = await this.keys.findWithUserBySecretHash(hashToken(secret));
    const wrong = whyRefused(found?.key, scopes);
    if (wrong || !found) throw await this.guard.fail(attempt, wrong ?? unknownKey(), 'Wrong API key');
    // Last use written at most once a minute, as a session's is.
    const now = this.clock.now();
    const last = found.key.lastUsedAt?.getTime() ?? 0;
    if (now.getTime() - last >= TOUCH_INTERVAL_MS) {
      await this.keys.touch(found.key.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS + 1));
    }
    return found;
  }
}
