// The billing API's requests and answers (/api/stripe/*, /api/auth/finish-trial, /api/plans/*).
// Checkout calls answer with the payment provider's checkout session: its id, and the URL the
// browser goes to (Stripe's hosted checkout, or the offline provider's test checkout page).
import { z } from 'zod';
import { userSchema } from '../api.js';
import { RESOURCE_KEYS, type ResourceKey } from '../constants.js';
import { PACKS } from './catalog.js';
import { MAX_PACKS_PER_CHECKOUT } from './pack-lists.js';
import { packIdSchema, planSelectionSchema } from './schemas.js';

/** Which payment provider the server uses; `none` is a self-hosted server without payments. */
export const BILLING_PROVIDERS = ['stripe', 'offline', 'none'] as const;
export type BillingProviderName = (typeof BILLING_PROVIDERS)[number];

/** GET /api/plans/billing: whether plans are sold here, and through what. */
export const billingInfoSchema = z.object({
  provider: z.enum(BILLING_PROVIDERS),
  /** True when no card is ever charged (the offline provider, or Stripe in test mode). */
  testMode: z.boolean(),
});
export type BillingInfo = z.infer<typeof billingInfoSchema>;

export const checkoutResponseSchema = z.object({ id: z.string(), url: z.string() });
export type CheckoutResponse = z.infer<typeof checkoutResponseSchema>;

/** POST /api/stripe/onboarding/pay-now/plan-checkout. */
export const payNowCheckoutRequestSchema = planSelectionSchema.extend({ payNowPromo: z.boolean() });
export type PayNowCheckoutRequest = z.infer<typeof payNowCheckoutRequestSchema>;

/** POST /api/stripe/change-plan. */
export const changePlanRequestSchema = planSelectionSchema;
export type ChangePlanRequest = z.infer<typeof changePlanRequestSchema>;

/**
 * - mode `checkout`: no paid subscription yet; `id` is a checkout session, go to `url`.
 * - mode `subscription`: the existing subscription (`id`) was changed: `upgraded` now, or a
 *   downgrade scheduled for `effectiveAt` (the end of the current period).
 */
export const changePlanResponseSchema = z.object({
  mode: z.enum(['checkout', 'subscription']),
  id: z.string(),
  action: z.enum(['checkout', 'upgraded', 'downgrade_scheduled']),
  url: z.string().nullable(),
  effectiveAt: z.string().nullable(),
});
export type ChangePlanResponse = z.infer<typeof changePlanResponseSchema>;

const amountString = z.string().regex(/^\d{1,6}$/, 'must be a whole number');

/**
 * POST /api/stripe/create-checkout-session: `{ metadata: { pack, <resource>: "<amount>" } }`.
 * The resource and amount must be the pack's own: they say what the buyer saw, and a mismatch
 * means the page is out of date.
 */
export const packCheckoutRequestSchema = z
  .object({
    metadata: z
      .object({
        pack: packIdSchema,
        ...(Object.fromEntries(RESOURCE_KEYS.map((key) => [key, amountString.optional()])) as Record<
          ResourceKey,
          z.ZodOptional<typeof amountString>
        >),
      })
      .superRefine((metadata, ctx) => {
        const { resource, amount } = PACKS[metadata.pack];
        const named = RESOURCE_KEYS.filter((key) => metadata[key] !== undefined);
        if (named.length !== 1 || named[0] !== resource || Number(metadata[resource]) !== amount) {
          ctx.addIssue({
            code: 'custom',
            path: [resource],
            message: `${metadata.pack} adds ${amount} ${resource}; reload the plans page and try again`,
          });
        }
      }),
    /**
     * More packs paid in the same checkout: what else the action that ran short needs (a Voice needs
     * a storage slot and a training), so one payment covers it all.
     */
    alsoPacks: z
      .array(packIdSchema)
      .max(MAX_PACKS_PER_CHECKOUT - 1)
      .optional(),
  })
  .superRefine((body, ctx) => {
    const packs = [body.metadata.pack, ...(body.alsoPacks ?? [])];
    if (new Set(packs).size !== packs.length) {
      ctx.addIssue({ code: 'custom', path: ['alsoPacks'], message: 'each pack can be in a checkout once' });
    }
  });
export type PackCheckoutRequest = z.infer<typeof packCheckoutRequestSchema>;

/** The metadata a pack's checkout sends, as the plans page and the purchase modal build it. */
export function packCheckoutMetadata(pack: PackCheckoutRequest['metadata']['pack']): PackCheckoutRequest['metadata'] {
  const { resource, amount } = PACKS[pack];
  return { pack, [resource]: String(amount) };
}

/** Cancel, reactivate and finish-trial answer with the updated user. */
export const billingUserResponseSchema = z.object({ user: userSchema });

/** GET /api/plans/priority-support-link (virtuoso only). */
export const prioritySupportLinkSchema = z.object({ url: z.string() });

/** Why a ledger line moved a balance. */
export const LEDGER_REASONS = [
  'plan',
  'plan_upgrade',
  'pack',
  'trial',
  'admin',
  'starter',
  'usage',
  'refund',
  /** Taken back because the payment that granted it was refunded or disputed. */
  'reversal',
  'opening',
] as const;
export type LedgerReason = (typeof LEDGER_REASONS)[number];

/** What a ledger line moves: a usage resource, or the account's credits (granted by an admin). */
export const LEDGER_RESOURCES = [...RESOURCE_KEYS, 'credits'] as const;
export type LedgerResource = (typeof LEDGER_RESOURCES)[number];

/** One line of the usage ledger, in shown units (hours for waking hours). */
export const ledgerEntrySchema = z.object({
  id: z.string(),
  resource: z.enum(LEDGER_RESOURCES),
  /** Positive for a grant or refund, negative for a spend. */
  amount: z.number(),
  reason: z.enum(LEDGER_REASONS),
  /** Until when the tranche it moved lasts; null for storage slots. */
  expiresAt: z.string().nullable(),
  /** The API key whose request spent it; null for grants and for use in the pages. */
  apiKeyName: z.string().nullable(),
  createdAt: z.string(),
});
export type LedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** GET /api/plans/ledger: the signed-in user's latest ledger lines, newest first. */
export const ledgerResponseSchema = z.object({ entries: z.array(ledgerEntrySchema) });
