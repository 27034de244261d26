// API keys: created (the secret shown once, only its SHA-256 kept), listed, revoked, and checked
// on each request a key makes. A key acts as its owner: the routes it reaches run the same
// handlers, checks and charges as a session's (plugins/authenticate.ts says which routes).
import {
  API_KEY_PREFIX,
  API_KEY_SHOWN_CHARS,
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
import { errors } from '../errors.js';
import { newId } from '../ids.js';
import type { ApiKeysRepository } from '../repositories/api-keys.repository.js';
import type { UsersRepository } from '../repositories/users.repository.js';
import { TOUCH_INTERVAL_MS } from './sessions.service.js';
import { hashToken, newSessionToken } from './tokens.js';

export const isApiKeySecret = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

export const apiKeyView = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  shown: `${row.shown}…`,
  scopes: row.scopes,
  rateLimitPerMinute: row.rateLimitPerMinute,
  createdAt: row.createdAt.toISOString(),
  lastUsedAt: row.lastUsedAt?.toISOString() ?? null,
});

export class ApiKeysService {
  constructor(
    private readonly db: Database,
    private readonly keys: ApiKeysRepository,
    private readonly users: UsersRepository,
    private readonly clock: Clock,
  ) {}

  async create(user: UserRow, request: CreateApiKeyRequest): Promise<CreatedApiKey> {
    const { name, scopes, rateLimitPerMinute } = createApiKeyRequestSchema.parse(request);
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
          name,
          secretHash: hashToken(secret),
          shown: secret.slice(0, API_KEY_SHOWN_CHARS),
          scopes,
          rateLimitPerMinute,
          createdAt: now,
        },
        tx,
      );
    });
    return { key: apiKeyView(row), secret };
  }

  async list(user: UserRow): Promise<ApiKey[]> {
    return (await this.keys.listActive(user.id)).map(apiKeyView);
  }

  async revoke(user: UserRow, id: string): Promise<void> {
    if (!(await this.keys.revoke(user.id, id, this.clock.now()))) throw errors.notFound('API key');
  }

  /**
   * The owner and key of a secret that may use `scope` (a route's), marking the key used; 401 for
   * an unknown or revoked key, 403 for one without the scope.
   */
  async authenticate(secret: string, scope: ApiKeyScope): Promise<{ user: UserRow; key: ApiKeyRow }> {
    const found = await this.keys.findWithUserBySecretHash(hashToken(secret));
    if (!found)
      throw errors.unauthenticated('This API key is not valid. Check it, or create a new one on your account page.');
    if (found.key.revokedAt) throw errors.apiKeyRevoked();
    if (!found.key.scopes.includes(scope)) throw errors.apiKeyScope(scope);
    // Last use written at most once a minute, as a session's is.
    const now = this.clock.now();
    const last = found.key.lastUsedAt?.getTime() ?? 0;
    if (now.getTime() - last >= TOUCH_INTERVAL_MS) {
      await this.keys.touch(found.key.id, now, new Date(now.getTime() - TOUCH_INTERVAL_MS + 1));
    }
    return found;
  }
}
