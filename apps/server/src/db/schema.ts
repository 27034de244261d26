// The database schema. Migrations in ./migrations are generated from this file by
// `npm run db:generate -w apps/server` and applied at start, on PGlite and PostgreSQL alike.
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/** An unpaid invoice the person is asked to pay (users.payment_due). */
export interface PaymentDue {
  invoiceId: string;
  amountCents: number;
  /** The provider's page where it is paid. */
  payUrl: string | null;
  failure: string | null;
  requiresAction: boolean;
  /** The plan starts only once it is paid (the trial's end); otherwise the plan runs meanwhile. */
  blocksPlan: boolean;
}

const timestamps = {
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
};

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    username: text('username').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['user', 'admin', 'super_admin'] })
      .notNull()
      .default('user'),
    mfaEnabled: boolean('mfa_enabled').notNull().default(false),
    /** When a link sent to `email` was opened (or the address was proven otherwise); null until then. */
    emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
    /** An address the account asked to move to, until the link sent there is opened (then `email`). */
    pendingEmail: text('pending_email'),
    /** The e-mail notices switched off (shared NOTICES keys that are not required). */
    mutedNotices: text('muted_notices').array().notNull().default(sql`'{}'::text[]`),
    /** The TOTP secret, encrypted (security/secret-box.ts); set once two-factor is verified. */
    mfaSecret: text('mfa_secret'),
    /** A secret handed out by setup and not yet verified, encrypted. */
    mfaPendingSecret: text('mfa_pending_secret'),
    /** The last TOTP time step accepted: a code is good once, never again in its window. */
    mfaLastStep: integer('mfa_last_step'),
    planName: text('plan_name', { enum: ['trial', 'minimum', 'pro', 'virtuoso', 'none'] })
      .notNull()
      .default('none'),
    billingCycle: text('billing_cycle', { enum: ['monthly', 'annual'] }),
    subscriptionStatus: text('subscription_status', { enum: ['active', 'canceled'] }),
    cancelAtPeriodEnd: boolean('cancel_at_period_end').notNull().default(false),
    providerSubscriptionId: text('provider_subscription_id'),
    /** The payment provider's customer, created at the first checkout. */
    providerCustomerId: text('provider_customer_id'),
    /** Chose pay now at onboarding: plan payments are 15% off for life. */
    payNowDiscount: boolean('pay_now_discount').notNull().default(false),
    /** When the pay-later trial began; the minimum plan starts a day later unless finished sooner. */
    trialStartedAt: timestamp('trial_started_at', { withTimezone: true }),
    /** The card saved by the pay-later setup checkout (its SetupIntent), charged when the trial ends. */
    trialSetupIntentId: text('trial_setup_intent_id'),
    /** A card was saved for the trial, but this address or card had one before: no trial started. */
    trialRefusedAt: timestamp('trial_refused_at', { withTimezone: true }),
    currentPeriodEnd: timestamp('current_period_end', { withTimezone: true }),
    /** A downgrade scheduled for the next period, and the subscription it belongs to. */
    pendingPlan: text('pending_plan', { enum: ['minimum', 'pro', 'virtuoso'] }),
    pendingBillingCycle: text('pending_billing_cycle', { enum: ['monthly', 'annual'] }),
    pendingEffectiveAt: timestamp('pending_effective_at', { withTimezone: true }),
    pendingForSubscriptionId: text('pending_for_subscription_id'),
    /** The plan and cycle the last paid period was granted for: an upgrade grants the difference. */
    grantedPlan: text('granted_plan', { enum: ['minimum', 'pro', 'virtuoso'] }),
    grantedBillingCycle: text('granted_billing_cycle', { enum: ['monthly', 'annual'] }),
    /** The minimum plan's one-time Voice training was granted (once per account). */
    oneTimeGranted: boolean('one_time_granted').notNull().default(false),
    /** The subscription's latest invoice while it is unpaid (a declined card, a bank asking to confirm). */
    paymentDue: jsonb('payment_due').$type<PaymentDue>(),
    onboardingStep: text('onboarding_step').notNull().default('registered'),
    credits: integer('credits').notNull().default(0),
    modelStorageSlotsTotal: integer('model_storage_slots_total').notNull().default(0),
    lastLoginAt: timestamp('last_login_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('users_email_unique').on(t.email),
    // Usernames are unique regardless of case: "Ann" and "ann" are the same person to readers.
    uniqueIndex('users_username_lower_unique').on(sql`lower(${t.username})`),
  ],
);

export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    // SHA-256 of the bearer token: a leaked table cannot be replayed as tokens.
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
    ip: text('ip'),
    userAgent: text('user_agent'),
    /** Until when an admin's actions need no fresh code: a right one was given (services/step-up.service.ts). */
    confirmedUntil: timestamp('confirmed_until', { withTimezone: true }),
  },
  (t) => [uniqueIndex('sessions_token_hash_unique').on(t.tokenHash), index('sessions_user_id_idx').on(t.userId)],
);

/**
 * API keys: a person's own tools calling their Voices (shared `api-keys.ts`). Only the secret's
 * SHA-256 is kept, and its first characters to tell keys apart. A revoked key keeps its row, so
 * the usage ledger's lines that name it still say which key spent them.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    secretHash: text('secret_hash').notNull(),
    shown: text('shown').notNull(),
    scopes: text('scopes', { enum: ['voices:read', 'convert', 'create', 'training'] })
      .array()
      .notNull(),
    rateLimitPerMinute: integer('rate_limit_per_minute').notNull(),
    /** Wakes a sleeping Voice it is asked to write with; keys made before the choice do not. */
    wakesVoices: boolean('wakes_voices').notNull().default(false),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [uniqueIndex('api_keys_secret_hash_unique').on(t.secretHash), index('api_keys_user_id_idx').on(t.userId)],
);

/**
 * Wrong passwords and codes, counted per subject (`email:` and the SHA-256 of an address signing
 * in, whether or not an account has it; or `user:` and a signed-in user's id) and source (`ip:` a
 * client address, `device:` a browser the account knows, `session:` a signed-in session, or `*`
 * for every unknown source together). A source is locked out, never the subject's owner.
 */
export const authFailures = pgTable(
  'auth_failures',
  {
    subject: text('subject').notNull(),
    source: text('source').notNull(),
    failures: integer('failures').notNull().default(0),
    lastFailedAt: timestamp('last_failed_at', { withTimezone: true }).notNull(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
  },
  (t) => [primaryKey({ columns: [t.subject, t.source] }), index('auth_failures_last_failed_at_idx').on(t.lastFailedAt)],
);

/** Browsers an account has signed in from (the SHA-256 of their device cookie): wrong tries there slow down, never lock. */
export const knownDevices = pgTable(
  'known_devices',
  {
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.tokenHash] })],
);

export const usageTranches = pgTable(
  'usage_tranches',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: text('type', { enum: ['modelsTrained', 'chunkEdits', 'shortContent', 'activationHours'] }).notNull(),
    /** In the type's stored unit: minutes for activationHours (metered by the minute), else units. */
    amount: integer('amount').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    source: text('source').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('usage_tranches_user_type_idx').on(t.userId, t.type)],
);

/**
 * The usage ledger: every grant, spend and refund of every resource, append-only. A tranche's
 * amount is the sum of its lines, and the storage-slot total the sum of the storageSlots lines,
 * so any balance can be explained line by line and recomputed. Amounts are in stored units
 * (minutes for waking hours), negative for a spend. `reference` names what caused a grant (an
 * invoice, a checkout session, the trial): a unique index makes each grant happen once.
 */
export const ledgerEntries = pgTable(
  'ledger_entries',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    resource: text('resource', {
      enum: ['modelsTrained', 'chunkEdits', 'shortContent', 'activationHours', 'storageSlots', 'credits'],
    }).notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason', {
      enum: ['plan', 'plan_upgrade', 'pack', 'trial', 'admin', 'starter', 'usage', 'refund', 'reversal', 'opening'],
    }).notNull(),
    /** The tranche this line moved; null for storage slots. */
    trancheId: text('tranche_id').references(() => usageTranches.id, { onDelete: 'cascade' }),
    /** A refund line: the spend line it gives back. */
    refundOf: text('refund_of'),
    reference: text('reference'),
    /** The admin who made an `admin` line; kept (not a foreign key) after that admin is deleted. */
    authorId: text('author_id'),
    /** The API key that made a `usage` spend; null when the pages did. Revoked keys keep their rows. */
    apiKeyId: text('api_key_id').references(() => apiKeys.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ledger_entries_user_idx').on(t.userId, t.createdAt),
    index('ledger_entries_refund_of_idx').on(t.refundOf),
    uniqueIndex('ledger_entries_grant_once').on(t.userId, t.reason, t.resource, t.reference),
  ],
);

export const voices = pgTable(
  'voices',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    status: text('status', {
      enum: ['pending', 'training', 'ready', 'active', 'activating', 'deactivating', 'failed'],
    })
      .notNull()
      .default('pending'),
    progress: integer('progress').notNull().default(0),
    statusMessage: text('status_message'),
    isPublic: boolean('is_public').notNull().default(false),
    /** The training run that made (or is making) this Voice; shown for support. */
    pipelineId: text('pipeline_id'),
    /** Storage key of the adapter, versioned per run (llama.cpp caches adapters by path). */
    adapterKey: text('adapter_key'),
    forkedFromId: text('forked_from_id'),
    characters: integer('characters'),
    evaluation: jsonb('evaluation'),
    /** Training stage, and when the training is estimated to end (null while it estimates), while training. */
    stage: text('stage', { enum: ['extract', 'pairs', 'train', 'export', 'evaluate'] }),
    estimatedDoneAt: timestamp('estimated_done_at', { withTimezone: true }),
    /** A worker training this Voice renews this; a lapsed lease means the worker died and the job is retried. */
    leaseUntil: timestamp('lease_until', { withTimezone: true }),
    /** Awake time is charged up to here (minute resolution); null while asleep. */
    meteredUntil: timestamp('metered_until', { withTimezone: true }),
    /**
     * The inference endpoint the awake Voice's adapter is loaded on (a URL from
     * OWNVOICE_INFERENCE_URLS, or "embedded"); null while asleep. Every API server sends the
     * Voice's generations there.
     */
    inferenceEndpoint: text('inference_endpoint'),
    /** Last generation with this Voice, for the idle sleep. */
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    /**
     * The base model the Voice was trained on: a Voice wakes only on its own (decision 31).
     * `recorded` when its training starts and again when it ends, carried by forks and imports;
     * `unknown` for Voices trained before it was recorded (migration 0020); null until a training
     * starts. The name is OWNVOICE_BASE_MODEL's word for it; the SHA-256 of the file is what counts.
     */
    baseModelState: text('base_model_state', { enum: ['recorded', 'unknown'] }),
    baseModelName: text('base_model_name'),
    /** For an `unknown` base, the file name its adapter's PEFT export gives, when it has one. */
    baseModelFile: text('base_model_file'),
    baseModelSha256: text('base_model_sha256'),
    baseModelBytes: bigint('base_model_bytes', { mode: 'number' }),
    /**
     * When its training ended: set as it ends, carried by forks, taken from the package by imports;
     * null for Voices trained before it was recorded (migration 0023).
     */
    trainedAt: timestamp('trained_at', { withTimezone: true }),
    ...timestamps,
  },
  (t) => [index('voices_user_id_idx').on(t.userId), index('voices_public_idx').on(t.isPublic)],
);

/**
 * A training's events (shared `training-events.ts`), as OpenAI's fine-tuning job events: stage
 * changes, progress every few percent and the end. At most TRAINING_EVENTS_KEPT per Voice.
 */
export const trainingEvents = pgTable(
  'training_events',
  {
    id: text('id').primaryKey(),
    /** The order they were written in: ids and times of one second would tie. */
    seq: integer('seq').generatedAlwaysAsIdentity().notNull(),
    voiceId: text('voice_id')
      .notNull()
      .references(() => voices.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    level: text('level', { enum: ['info', 'warn', 'error'] }).notNull(),
    stage: text('stage', {
      enum: ['queued', 'extract', 'pairs', 'train', 'export', 'evaluate', 'succeeded', 'failed', 'cancelled'],
    }).notNull(),
    step: integer('step'),
    totalSteps: integer('total_steps'),
    message: text('message').notNull(),
    estimatedDoneAt: timestamp('estimated_done_at', { withTimezone: true }),
  },
  (t) => [index('training_events_voice_seq_idx').on(t.voiceId, t.seq)],
);

/**
 * An interactive writing session, kept by the server: the client names it and sends an action
 * with the writer's input; the step, what was accumulated and what was paid live here.
 */
export const interactiveSessions = pgTable(
  'interactive_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    voiceId: text('voice_id').notNull(),
    /** The session state as the client sees it (shared InteractiveState). */
    state: jsonb('state').notNull(),
    /** Bumped by every step: a step runs against the version it read, once. */
    version: integer('version').notNull().default(0),
    /** Short content spent on this session, and drafts (section drafts and rewrites) run. */
    paid: integer('paid').notNull().default(0),
    drafts: integer('drafts').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('interactive_sessions_user_idx').on(t.userId, t.updatedAt)],
);

export const mfaBackupCodes = pgTable(
  'mfa_backup_codes',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** SHA-256 of the code: the codes themselves are shown once, at setup. */
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('mfa_backup_codes_user_idx').on(t.userId)],
);

/**
 * The activity log, append-only (services/activity.service.ts is its only writer): the security
 * events of each account and every admin action. `userId` is whose account it concerns, `actorId`
 * who acted (the user, an admin, or null for the system and the payment provider). Neither is a
 * foreign key: deleting an account removes its rows explicitly and appends the record of the
 * deletion, which is all that remains of it (docs/decisions/0015).
 */
export const activities = pgTable(
  'activities',
  {
    id: text('id').primaryKey(),
    /** Order of writing: events in the same millisecond still read back in the order they happened. */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
    userId: text('user_id').notNull(),
    actorId: text('actor_id'),
    kind: text('kind', { enum: ['security', 'admin', 'billing'] }).notNull(),
    action: text('action').notNull(),
    details: text('details').notNull(),
    before: jsonb('before').$type<Record<string, unknown>>(),
    after: jsonb('after').$type<Record<string, unknown>>(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('activities_user_idx').on(t.userId, t.seq), index('activities_actor_idx').on(t.actorId, t.seq)],
);

/** An admin invitation: the link's token is stored hashed, good once and for 24 hours. */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    tokenHash: text('token_hash').notNull(),
    email: text('email').notNull(),
    role: text('role', { enum: ['admin', 'super_admin'] }).notNull(),
    invitedBy: text('invited_by'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    acceptedAt: timestamp('accepted_at', { withTimezone: true }),
    acceptedBy: text('accepted_by'),
    /** Revoked by an admin, or because its inviter lost the right to send it. */
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('invitations_token_hash_unique').on(t.tokenHash)],
);

/**
 * Every e-mail the service sends, rendered when it is queued and delivered by the mail queue:
 * `queued` until a transport took it, `sent`, or `failed` once its attempts ran out (admins see
 * those). Deleting the account deletes its messages: they hold its address and its links.
 */
export const mailMessages = pgTable(
  'mail_messages',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id, { onDelete: 'cascade' }),
    to: text('to').notNull(),
    /** Which message this is (mail/messages.ts), for the admin's list. */
    kind: text('kind').notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html').notNull(),
    status: text('status', { enum: ['queued', 'sent', 'failed'] })
      .notNull()
      .default('queued'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [index('mail_messages_status_created_idx').on(t.status, t.createdAt)],
);

/** Password-reset links: only the SHA-256 of the token is kept; each works once, until it expires. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Used, replaced by a newer link's use, or burnt by wrong two-factor codes. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** Wrong two-factor codes sent with this link; enough of them burn it. */
    wrongCodes: integer('wrong_codes').notNull().default(0),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('password_resets_token_hash_unique').on(t.tokenHash),
    index('password_resets_user_idx').on(t.userId),
  ],
);

/**
 * Links that confirm an address: a sign-up's own (`verify`), or a new address the account asked to
 * move to (`change`, applied when opened). Only the token's SHA-256 is kept.
 */
export const emailLinks = pgTable(
  'email_links',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify', 'change'] }).notNull(),
    /** The address the link was sent to, which it confirms. */
    email: text('email').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    /** Opened, or replaced by a newer link of the account. */
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('email_links_token_hash_unique').on(t.tokenHash), index('email_links_user_idx').on(t.userId)],
);

/**
 * Links mailed to an address a request chose (a sign-up's confirmation, a new address's), counted
 * per address whichever account asked, deleted ones included: by the SHA-256 of the address, so
 * nothing of a deleted account's address is kept (decision 33). Rows older than an hour go.
 */
export const mailedLinks = pgTable(
  'mailed_links',
  {
    id: text('id').primaryKey(),
    addressHash: text('address_hash').notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('mailed_links_address_sent_idx').on(t.addressHash, t.sentAt),
    index('mailed_links_sent_at_idx').on(t.sentAt),
  ],
);

/**
 * Webhook endpoints (shared `webhooks.ts`): where an account is told that a training ended. The
 * signing secret is sealed with the server's key (security/secret-box.ts): signing needs it back.
 */
export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    url: text('url').notNull(),
    events: text('events', {
      enum: ['voice.training.succeeded', 'voice.training.failed', 'voice.training.cancelled'],
    })
      .array()
      .notNull(),
    secretSealed: text('secret_sealed').notNull(),
    shown: text('shown').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('webhook_endpoints_user_idx').on(t.userId)],
);

/** One event's delivery to one endpoint: its body as sent, and how its attempts went. */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    endpointId: text('endpoint_id')
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    type: text('type', {
      enum: ['voice.training.succeeded', 'voice.training.failed', 'voice.training.cancelled'],
    }).notNull(),
    /** The JSON body, byte for byte as signed and sent (a replay sends it again). */
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    lastStatus: integer('last_status'),
    lastError: text('last_error'),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
  },
  (t) => [index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt)],
);

export type UserRow = typeof users.$inferSelect;
export type WebhookEndpointRow = typeof webhookEndpoints.$inferSelect;
export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;
export type EmailLinkRow = typeof emailLinks.$inferSelect;
export type PasswordResetRow = typeof passwordResets.$inferSelect;
export type MailMessageRow = typeof mailMessages.$inferSelect;
export type ActivityRow = typeof activities.$inferSelect;
export type InvitationRow = typeof invitations.$inferSelect;
export type VoiceRow = typeof voices.$inferSelect;
export type TrainingEventRow = typeof trainingEvents.$inferSelect;
export type SessionRow = typeof sessions.$inferSelect;
export type AuthFailureRow = typeof authFailures.$inferSelect;
export type UsageTrancheRow = typeof usageTranches.$inferSelect;
export type LedgerEntryRow = typeof ledgerEntries.$inferSelect;
export type ApiKeyRow = typeof apiKeys.$inferSelect;
export type InteractiveSessionRow = typeof interactiveSessions.$inferSelect;

export * from './billing-schema.js';
