// The admin console's form rules (the product description's admin forms), shared so the console
// and the API agree: granting credits, inviting an admin, changing a role, editing limits.
import { z } from 'zod';
import { BILLING_CYCLES, ID_PATTERN, PLAN_NAMES, ROLES, SUBSCRIPTION_STATUSES, TRANCHE_TYPES } from '../constants.js';
import { ONBOARDING_STEPS } from '../onboarding.js';
import { emailSchema } from './auth.js';
import { cleanText } from './text.js';

export const ADMIN_GRANT_MAX = 10_000;
/** The most of one resource a usage grant may give (waking hours are stored in minutes, in 32 bits). */
export const ADMIN_USAGE_GRANT_MAX = 100_000;
export const ADMIN_REASON_MIN = 5;
export const ADMIN_REASON_MAX = 500;
/** The header that carries a fresh second-factor code for a sensitive admin action. */
export const ADMIN_MFA_HEADER = 'x-mfa-token';
/**
 * After a right code, the session's admin actions need no other for this long (like GitHub's sudo
 * mode); signing out, or ending it from the console, ends it sooner.
 */
export const ADMIN_CONFIRMED_WINDOW_MS = 5 * 60_000;
/** Roles an invitation may give. */
export const INVITE_ROLES = ['admin', 'super_admin'] as const;

export const ADMIN_MESSAGES = {
  reasonLength: `The reason must be ${ADMIN_REASON_MIN} to ${ADMIN_REASON_MAX} characters long`,
  amountWhole: 'The amount must be a whole number',
  usageGrantAmount: `The amount to grant must be a whole number from 1 to ${ADMIN_USAGE_GRANT_MAX.toLocaleString('en-US')}`,
  limitsEmpty: 'Say what to change: a usage grant, storage slots, plan, onboarding step or subscription status',
  deleteConfirm: 'Are you sure you want to delete this user? This action cannot be undone.',
} as const;

/** Characters a reason may not carry (it is shown in the activity log): < > " ' & */
export const stripReasonMarkup = (value: string): string => cleanText(value.replace(/[<>"'&]/g, ''));

const userIdSchema = z.string().regex(ID_PATTERN, 'must be a user id');

/** Credits are clamped to 0–10,000, as the console's form clamps them. */
export const grantCreditsBodySchema = z.object({
  userId: userIdSchema,
  amount: z
    .number({ error: ADMIN_MESSAGES.amountWhole })
    .int(ADMIN_MESSAGES.amountWhole)
    .transform((n) => Math.min(ADMIN_GRANT_MAX, Math.max(0, n))),
  reason: z
    .string({ error: ADMIN_MESSAGES.reasonLength })
    .transform(stripReasonMarkup)
    .pipe(
      z.string().min(ADMIN_REASON_MIN, ADMIN_MESSAGES.reasonLength).max(ADMIN_REASON_MAX, ADMIN_MESSAGES.reasonLength),
    ),
});
export type GrantCreditsBody = z.infer<typeof grantCreditsBodySchema>;

export const inviteBodySchema = z.object({ email: emailSchema, role: z.enum(INVITE_ROLES) });
export type InviteBody = z.infer<typeof inviteBodySchema>;

export const roleBodySchema = z.object({ role: z.enum(ROLES) });

/**
 * What an admin may change about a user's limits, in one request: a usage grant (a tranche of
 * one resource with its expiry), the storage-slot total, the plan, the onboarding step, the
 * subscription status. At least one must be given.
 */
export const limitsBodySchema = z
  .object({
    usageGrant: z
      .object({
        type: z.enum(TRANCHE_TYPES),
        amount: z
          .number({ error: ADMIN_MESSAGES.usageGrantAmount })
          .int(ADMIN_MESSAGES.usageGrantAmount)
          .min(1, ADMIN_MESSAGES.usageGrantAmount)
          .max(ADMIN_USAGE_GRANT_MAX, ADMIN_MESSAGES.usageGrantAmount),
        expiresAt: z.iso.datetime({ offset: true }),
      })
      .optional(),
    usageLimits: z.object({ modelStorageSlotsTotal: z.number().int().min(0).max(1_000_000) }).optional(),
    plan: z.object({ name: z.enum(PLAN_NAMES), billingCycle: z.enum(BILLING_CYCLES).optional() }).optional(),
    onboarding: z.object({ step: z.enum(ONBOARDING_STEPS) }).optional(),
    subscription: z.object({ status: z.enum(SUBSCRIPTION_STATUSES) }).optional(),
  })
  .refine((body) => Object.values(body).some((part) => part !== undefined), ADMIN_MESSAGES.limitsEmpty);
export type LimitsBody = z.infer<typeof limitsBodySchema>;
