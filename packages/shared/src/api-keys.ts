// API keys: how a person's own tools call their Voices without a browser session. A key acts as
// its owner with every check a session has, only on the routes its scopes name, and never on
// account, billing or admin routes.
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';

/** What a key may do: list and read Voices, Convert with them, Create with them. */
export const API_KEY_SCOPES = ['voices:read', 'convert', 'create'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'voices:read': 'Read your Voices',
  convert: 'Convert text',
  create: 'Create content',
};

/** Every secret starts so: a bearer token that is a key, not a session, shows it at once. */
export const API_KEY_PREFIX = 'ovk_';
/** Characters of the secret shown in lists after it is created (prefix included), to tell keys apart. */
export const API_KEY_SHOWN_CHARS = 12;
export const API_KEYS_MAX = 10;
export const API_KEY_NAME_MAX = 60;
/** Requests a key may make a minute: its own budget, apart from the owner's other keys and sessions. */
export const API_KEY_RATE_LIMIT = { default: 60, min: 1, max: 600 } as const;

export const createApiKeyRequestSchema = z.object({
  name: z.string().trim().min(1, 'Give the key a name').max(API_KEY_NAME_MAX),
  scopes: z
    .array(z.enum(API_KEY_SCOPES))
    .min(1, 'Choose at least one thing the key may do')
    .refine((scopes) => new Set(scopes).size === scopes.length, 'Each scope once'),
  rateLimitPerMinute: z
    .number()
    .int()
    .min(API_KEY_RATE_LIMIT.min)
    .max(API_KEY_RATE_LIMIT.max)
    .default(API_KEY_RATE_LIMIT.default),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret's first characters ("ovk_3fQk9a…"); the rest is never shown again. */
  shown: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  rateLimitPerMinute: z.number().int(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyIdParamsSchema = z.object({ id: z.string().regex(ID_PATTERN, 'must be an API key id') });

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

/** The answer to creating a key: the secret, this once. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
