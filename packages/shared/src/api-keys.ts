// API keys: how a person's own tools call their Voices without a browser session. A key acts as
// its owner with every check a session has, only on the routes its scopes name, and never on
// account, billing or admin routes.
import { z } from 'zod';
import { ID_PATTERN } from './constants.js';
import { cleanName, hasInvisible, loginCodeSchema } from './validation/auth.js';
import { currentPasswordSchema } from './validation/email.js';

/**
 * What a key may do: list and read Voices, Convert with them, Create with them, and train Voices
 * (create one from an upload, follow and cancel its training, download and import packages).
 */
export const API_KEY_SCOPES = ['voices:read', 'convert', 'create', 'training'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

export const API_KEY_SCOPE_LABELS: Record<ApiKeyScope, string> = {
  'voices:read': 'Read your Voices',
  convert: 'Convert text',
  create: 'Create content',
  training: 'Train Voices',
};

/** Every secret starts so: a bearer token that is a key, not a session, shows it at once. */
export const API_KEY_PREFIX = 'ovk_';
/** Characters of the secret shown in lists after it is created (prefix included), to tell keys apart. */
export const API_KEY_SHOWN_CHARS = 12;
export const API_KEYS_MAX = 10;
export const API_KEY_NAME_MAX = 60;
/** Requests a key may make a minute: its own budget, apart from the owner's other keys and sessions. */
export const API_KEY_RATE_LIMIT = { default: 60, min: 1, max: 600 } as const;

/**
 * What the key dialog says of waking: a key that may wakes a sleeping Voice it is asked to write
 * with, and the waking hours are charged as when its owner wakes it on the dashboard.
 */
export const API_KEY_WAKE_LABEL = 'Wake a sleeping Voice when it is asked to write (uses waking hours)';

export const API_KEY_MESSAGES = {
  nameRequired: 'Give the key a name',
  nameLength: `A key's name is at most ${API_KEY_NAME_MAX} characters long`,
  nameInvisible: 'Type the name without invisible characters or direction marks (copying from some apps adds them)',
  /** What the key dialog says about the password it asks for. */
  passwordWhy: 'A key can use your Voices and spend your usage, so making one needs your password.',
} as const;

/**
 * A key's name, cleaned as a username is (shown in the key list, the usage history and the mail
 * that tells of a new key); refused rather than repaired when it hides characters.
 */
const apiKeyNameSchema = z
  .string({ error: API_KEY_MESSAGES.nameRequired })
  // A huge input is refused before it is normalised.
  .max(API_KEY_NAME_MAX * 4, API_KEY_MESSAGES.nameLength)
  .transform(cleanName)
  .pipe(
    z
      .string()
      .min(1, API_KEY_MESSAGES.nameRequired)
      .max(API_KEY_NAME_MAX, API_KEY_MESSAGES.nameLength)
      .refine((name) => !hasInvisible(name), API_KEY_MESSAGES.nameInvisible),
  );

/**
 * POST /api/auth/api-keys. The current password (and a code when two-factor is on) is asked for
 * again: a key outlives a session, so a stolen session must not be able to make one (decision 33).
 */
export const createApiKeyRequestSchema = z.object({
  name: apiKeyNameSchema,
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
  /**
   * Whether the key wakes a sleeping Voice it names (Convert, Create, /v1), so that a tool keeps
   * working after the Voice's idle sleep. On unless the owner turns it off: a key made for a tool
   * is meant to keep working. Keys made before this choice existed do not wake (decision 45).
   */
  wakesVoices: z.boolean().default(true),
  currentPassword: currentPasswordSchema,
  mfaToken: loginCodeSchema.optional(),
});
export type CreateApiKeyRequest = z.input<typeof createApiKeyRequestSchema>;

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The secret's first characters ("ovk_3fQk9a…"); the rest is never shown again. */
  shown: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  rateLimitPerMinute: z.number().int(),
  wakesVoices: z.boolean(),
  createdAt: z.string(),
  lastUsedAt: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const apiKeyIdParamsSchema = z.object({ id: z.string().regex(ID_PATTERN, 'must be an API key id') });

export const apiKeyListSchema = z.object({ keys: z.array(apiKeySchema) });

/** The answer to creating a key: the secret, this once. */
export const createdApiKeySchema = z.object({ key: apiKeySchema, secret: z.string() });
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;
