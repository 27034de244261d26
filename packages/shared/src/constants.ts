// Business constants: every number the product shows or enforces (limits, timings, labels)
// lives here once.

export const ROLES = ['user', 'admin', 'super_admin'] as const;
export type Role = (typeof ROLES)[number];
export const ADMIN_ROLES: readonly Role[] = ['admin', 'super_admin'];
export const isAdminRole = (role: Role): boolean => ADMIN_ROLES.includes(role);
/** Roles from least to most rights: a change to a lower one is a demotion. */
export const ROLE_RANK: Record<Role, number> = { user: 0, admin: 1, super_admin: 2 };

export const ROLE_LABELS: Record<Role, string> = {
  user: 'User',
  admin: 'Admin',
  super_admin: 'Super Admin',
};

export const USERNAME_MIN = 3;
export const USERNAME_MAX = 30;
export const EMAIL_MAX = 100;
export const PASSWORD_MIN = 8;
export const PASSWORD_MAX = 128;
export const LOGIN_CODE_MIN = 6;
export const LOGIN_CODE_MAX = 8;

/** Inactivity limits, measured from last use, on the server and in the browser. */
export const INACTIVITY_LIMIT_MS: Record<Role, number> = {
  user: 24 * 60 * 60 * 1000,
  admin: 60 * 60 * 1000,
  super_admin: 60 * 60 * 1000,
};

export const ACCOUNT_LOCK_MS = 2 * 60 * 60 * 1000;
export const MAX_FAILED_LOGINS = 5;

/** The browser keeps a CSRF token this long, refreshing it this much earlier. */
export const CSRF_CACHE_MS = 3000 * 1000;
export const CSRF_SAFETY_MARGIN_MS = 300 * 1000;
/** The server accepts a token for this long; longer than the browser's cache. */
export const CSRF_TOKEN_VALIDITY_MS = 3600 * 1000;
export const CSRF_HEADER = 'x-csrf-token';

export const TOAST_ERROR_MS = 4000;
export const TOAST_SUCCESS_MS = 2000;
export const TOAST_MAX = 20;

export const ID_LENGTH = 24;
export const ID_PATTERN = /^[0-9a-f]{24}$/;

export const COPIED_FEEDBACK_MS = 800;

export const PLAN_NAMES = ['trial', 'minimum', 'pro', 'virtuoso', 'none'] as const;
export type PlanName = (typeof PLAN_NAMES)[number];
export const BILLING_CYCLES = ['monthly', 'annual'] as const;
export type BillingCycle = (typeof BILLING_CYCLES)[number];
export const SUBSCRIPTION_STATUSES = ['active', 'canceled'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export const RESOURCE_KEYS = [
  'modelsTrained',
  'activationHours',
  'chunkEdits',
  'shortContent',
  'storageSlots',
] as const;
export type ResourceKey = (typeof RESOURCE_KEYS)[number];

/** Resources granted as expiring tranches (storage slots are a plain total). */
export const TRANCHE_TYPES = ['modelsTrained', 'chunkEdits', 'shortContent', 'activationHours'] as const;
export type TrancheType = (typeof TRANCHE_TYPES)[number];

/** Each resource's unit inside a sentence, one and many ("short content" has no plural). */
export const RESOURCE_UNITS: Record<ResourceKey, readonly [one: string, many: string]> = {
  modelsTrained: ['trainable Voice', 'trainable Voices'],
  activationHours: ['Voice waking hour', 'Voice waking hours'],
  chunkEdits: ['proofread', 'proofreads'],
  shortContent: ['short content', 'short content'],
  storageSlots: ['Voice storage slot', 'Voice storage slots'],
};

const capitalized = (text: string): string => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/** A resource's name as a label or heading: "Trainable Voices", "Voice waking hours". */
export const RESOURCE_LABELS = Object.fromEntries(
  Object.entries(RESOURCE_UNITS).map(([key, [, many]]) => [key, capitalized(many)]),
) as Record<ResourceKey, string>;

/**
 * An amount of a resource: "1 trainable Voice", "100 proofreads" inside a sentence; with
 * `capitalized`, as a label ("1 Trainable Voice").
 */
export function resourceAmount(resource: ResourceKey, amount: number, options: { capitalized?: boolean } = {}): string {
  const unit = RESOURCE_UNITS[resource][amount === 1 ? 0 : 1];
  return `${amount.toLocaleString('en-US')} ${options.capitalized ? capitalized(unit) : unit}`;
}

export const PRODUCT_NAME = 'OwnVoice';
export const COMMUNITY_CHAT_URL = 'https://discord.gg/ownvoice';
export const PRIVACY_EFFECTIVE_DATE = '1 August 2025';

export const OFFLINE_APP = {
  version: '0.1.0',
  ramGb: 8,
  ramRecommendedGb: 16,
  diskGb: 8,
} as const;

/** How often the Voice pages poll and how long optimistic states hold. */
export const VOICE_TIMINGS = {
  /** A clicked wake/sleep or rename shows at once and holds this long unless the server says otherwise. */
  optimisticHoldMs: 45_000,
  dashboardPollMs: 10_000,
  trainingPollMs: 5_000,
  /** The dashboard keeps polling this long after a change. */
  recentChangeMs: 10_000,
  /** The "Creating Voice..." placeholder while an upload is accepted. */
  tempPlaceholderMs: 10_000,
  rotaAiDelayMs: 500,
  rotaDepth: 6,
} as const;
